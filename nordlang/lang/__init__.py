"""nordlang, the language: grammar, parser, primitive registry, compiler."""
