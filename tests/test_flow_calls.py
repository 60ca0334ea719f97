"""A call's bindings (program.py _binder): dict(zip(parameters, arguments))
written out once per call for the callee's parameters; arguments of
another number bound as zip binds them."""

import pytest

import nordlang
from nordlang.engine.program import CallProc, _binder, compiled_flows


@pytest.mark.parametrize("params", [(), ("p",), ("tile", "v"), ("a", "b", "c", "d")])
def test_a_binder_binds_as_zip_does(params):
    bind = _binder(params)
    for args in [tuple(range(len(params))), (("x", 1), 3, None, "w")[:len(params)], (), (1,), (1, 2, 3, 4, 5)]:
        assert bind(args) == dict(zip(params, args))
        assert list(bind(args)) == list(dict(zip(params, args)))     # (the same order)


def test_every_call_with_arguments_has_its_callees_binder():
    rules = nordlang.load_rules("vikings", 3)
    calls = [ins for code in compiled_flows(rules)[0].values() for ins in code if type(ins) is CallProc]
    with_args = [ins for ins in calls if ins.args is not None]
    assert len(with_args) >= 5
    for ins in with_args:
        params = tuple(rules.procs[ins.proc].params)
        assert ins.bind(tuple(range(len(params)))) == dict(zip(params, range(len(params))))
    assert all(ins.bind is None for ins in calls if ins.args is None)
