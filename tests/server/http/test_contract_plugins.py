"""The contract describes games installed as plugins, and the built-in ones precisely
(issue 41).

A server plays any game installed as a plugin of the rules package, but openapi.yaml named
the built-in ones only (``GameFields``' ``ruleset: [mathable]``, closed schemas, ``GET
/v1/rulesets/{name}`` a ``oneOf`` of the two): a server with a plugin game answered outside
its own contract. A game the contract does not know now fits its generic schemas
(``PluginRuleset``, ``PluginGameFields``, ``PluginEvent``, ``PluginResult``,
``PluginErrorCode``), which never take a built-in game's answer: those keep their closed
schemas. And ``Event`` is a ``oneOf`` a JSON Schema validator picks from by the ``type``
each branch names (OpenAPI's ``discriminator.mapping``, which validators such as ajv
cannot use, is gone). The example game against a live server: tests/examples/test_contract.py.
"""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient

from mathable.core import plugins
from mathable.core.events import EVENT_TYPES, GAME_EVENT_TYPES
from tests.server.contract import check_schema, spec
from tests.server.helpers import Table


def _fails(name: str, value: Any) -> bool:
    try:
        check_schema(name, value)
    except AssertionError:
        return True
    return False


def test_a_built_in_game_keeps_its_closed_schema(table: Table, client: FlaskClient) -> None:
    view = client.get(f"/v1/games/{table.id}", headers=table.ada.auth).json
    assert view is not None
    check_schema("Game", view)
    stray = {**view, "colour": "red"}
    assert _fails("Game", stray)  # not taken by the plugin game's open schema
    assert _fails("Game", {**view, "bag_size": "many"})
    # The same keys under a ruleset the contract does not know: a plugin game's view.
    check_schema("Game", {**stray, "ruleset": "fifteen", "bag_size": "many"})
    assert _fails("Game", {**stray, "ruleset": "fifteen", "you": "me"})  # its common keys hold


@pytest.mark.parametrize("name", ["mathable", "summy"])
def test_a_built_in_ruleset_keeps_its_closed_schema(client: FlaskClient, name: str) -> None:
    data = client.get(f"/v1/rulesets/{name}").json
    assert data is not None
    ruleset = spec()["paths"]["/v1/rulesets/{name}"]["get"]["responses"]["200"]
    assert len(ruleset["content"]["application/json"]["schema"]["oneOf"]) == 3
    check_schema("Ruleset" if name == "mathable" else "SummyRuleset", data)
    assert _fails("PluginRuleset", data)
    assert _fails("Ruleset" if name == "mathable" else "SummyRuleset", {**data, "extra": 1})
    check_schema("PluginRuleset", {**data, "name": "fifteen", "extra": 1})


def test_a_summary_of_a_built_in_game_is_as_precise_as_its_view(
    table: Table, client: FlaskClient
) -> None:
    listed = client.get("/v1/me?details=1", headers=table.ada.auth).json
    assert listed is not None
    summary = next(g for g in listed["games"] if g["id"] == table.id)
    check_schema("GameSummary", summary)
    ended = {**summary, "result": {"reason": "fifteen", "deductions": [0, 0], "scores": [1, 0],
                                   "winners": [0]}}  # fmt: skip
    assert _fails("GameSummary", ended)  # not an end of Mathable
    check_schema("GameSummary", {**ended, "ruleset": "fifteen"})
    assert _fails("GameSummary", {**summary, "last_turn": {"seat": 0, "digit": 5}})
    check_schema("GameSummary", {**summary, "ruleset": "fifteen", "referee": "none",
                                 "last_turn": {"seat": 0, "digit": 5}})  # fmt: skip


def test_an_event_of_a_plugin_game_fits_and_a_built_in_one_stays_precise() -> None:
    check_schema("Event", {"type": "digit_claimed", "v": 1, "version": 4, "seat": 0, "digit": 5})
    ended = {"type": "game_ended", "v": 1, "version": 9, "reason": "fifteen",
             "deductions": [0, 0], "scores": [1, 0], "winners": [0]}  # fmt: skip
    check_schema("Event", ended)  # a shared event, in a plugin game's words
    passed = {"type": "passed", "v": 1, "version": 5, "seat": 1}
    check_schema("Event", passed)
    assert _fails("Event", {**passed, "digit": 5})  # a built-in type never falls to PluginEvent
    assert _fails("Event", {"type": "Digit Claimed", "v": 1, "version": 4})


def test_the_events_are_a_one_of_by_type_without_a_discriminator() -> None:
    """Each branch of ``Event`` names its types in its own ``properties.type``; the types
    of the built-in games are EventType, every one of them, and a branch's types are no
    other branch's."""
    schemas = spec()["components"]["schemas"]
    event = schemas["Event"]
    assert "discriminator" not in event
    named: dict[str, str] = {}
    for branch in event["oneOf"]:
        name = branch["$ref"].rsplit("/", 1)[1]
        kind = schemas[name]["properties"]["type"]
        if name == "PluginEvent":
            assert kind["not"] == {"$ref": "#/components/schemas/EventType"}
            continue
        types = [kind["const"]] if "const" in kind else kind["enum"]
        for type_ in types:
            assert type_ not in named, (type_, name, named.get(type_))
            named[type_] = name
    assert sorted(named) == sorted(schemas["EventType"]["enum"])
    plugins.load_all()
    built_in = set(EVENT_TYPES) | set(GAME_EVENT_TYPES["mathable"]) | set(GAME_EVENT_TYPES["summy"])
    assert built_in == set(named)


def test_a_plugin_game_s_refusal_code_fits_and_a_built_in_code_is_one_of_the_lists() -> None:
    error = {"error": {"code": "digit_taken", "message": "5 is taken",
                       "details": {"digit": 5, "seat": 0}}}  # fmt: skip
    check_schema("Error", error)
    assert _fails("PluginErrorCode", "no_equation")  # the rules' own is not a plugin's
    assert _fails("PluginErrorCode", "validation_error")
    assert _fails("Error", {"error": {**error["error"], "code": "Digit taken"}})


def test_no_schema_names_the_built_in_rulesets_but_theirs() -> None:
    """``ruleset`` is closed to ``mathable`` or ``summy`` only in their own schemas: a
    request or answer that may concern any game takes any installed name."""
    schemas = spec()["components"]["schemas"]
    precise = {"GameFields": ["mathable"], "SummyGameFields": ["summy"]}
    for name, values in precise.items():
        assert schemas[name]["properties"]["ruleset"]["enum"] == values
    assert schemas["Ruleset"]["properties"]["name"]["enum"] == ["mathable"]
    assert schemas["SummyRuleset"]["properties"]["name"]["enum"] == ["summy"]
    assert "enum" not in schemas["NewGame"]["properties"]["ruleset"]
    assert "enum" not in schemas["GameSummary"]["properties"]["ruleset"]
    # A plugin game's own keys are its own: its view is open.
    assert "additionalProperties" not in schemas["PluginGameFields"]


def test_another_json_schema_validator_reads_the_events_alike(
    table: Table, client: FlaskClient
) -> None:
    """A validator that knows JSON Schema and nothing of OpenAPI (jsonschema-rs, which
    schemathesis brings) takes each event the way the suite's does."""
    rs = pytest.importorskip("jsonschema_rs")
    document = {**spec(), "$schema": "https://json-schema.org/draft/2020-12/schema"}
    event = rs.validator_for({**document, "$ref": "#/components/schemas/Event"})
    table.ok(table.ada, type="place", square="I8", tile=12)
    feed = client.get(f"/v1/games/{table.id}/events", headers=table.ada.auth).json
    assert feed is not None and len(feed["events"]) > 3
    fitting = [*feed["events"], {"type": "digit_claimed", "v": 1, "version": 4, "digit": 5}]
    for one in fitting:
        check_schema("Event", one)
        assert event.is_valid(one), one
    for one in fitting:
        odd = {**one, "colour": 1} if one["type"] != "digit_claimed" else {**one, "type": "Bad"}
        assert _fails("Event", odd) and not event.is_valid(odd), odd
