"""The engine: state, flow, standard library of primitives, moves and games."""
