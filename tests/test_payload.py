"""QR payload version 1 (docs/design.md §4): encoding, decoding, structural checks."""

import pytest
from hypothesis import given, settings, strategies as st

from kitgen.errors import KitgenError
from kitgen.games.codenames import editions, key_deck, key_payload


def test_round_trip():
    deck = key_deck.generate("s", editions.WORDS, 40)
    secret = key_deck.kit_secret("s")
    for key in deck:
        text = key_payload.encode("classic-en", key, secret)
        parsed = key_payload.decode(text)
        assert parsed.text == text
        assert (parsed.kit, parsed.number, parsed.total, parsed.starting_team, parsed.grid) == (
            "CLASSIC-EN", key.number, 40, key.starting_team, key.grid)
        assert parsed.check == key_payload.check_code(secret, parsed.body)


def test_payload_is_in_the_qr_alphanumeric_set():
    allowed = set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ $%*+-./:")
    text = key_payload.encode("my-kit-2", key_deck.generate("s", editions.WORDS, 1)[0], b"x")
    assert set(text) <= allowed


@pytest.mark.parametrize("bad", [
    "",
    "hello",
    "KG1:CLASSIC-EN:7/40:R:RRBNA/NBRBR/RNRBB/ANRBN/BRNRB",            # no check code
    "KG2:CLASSIC-EN:7/40:R:RRBNA/NBRBR/RNRBB/ANRBN/BRNRB:K3F9Q2",     # wrong version
    "KG1:classic-en:7/40:R:RRBNA/NBRBR/RNRBB/ANRBN/BRNRB:K3F9Q2",     # lower case kit
    "KG1:CLASSIC-EN:7/40:G:RRBNA/NBRBR/RNRBB/ANRBN/BRNRB:K3F9Q2",     # no such team
    "KG1:CLASSIC-EN:7/40:R:RRBNA/NBRBR/RNRBB/ANRBN:K3F9Q2" + "X" * 3000,
])
def test_malformed_payloads_are_refused(bad):
    with pytest.raises(KitgenError, match="is not a kitgen key payload: "):
        key_payload.decode(bad)


def test_wrong_split_is_refused():
    # 8 red, 9 blue but red is said to start
    grid = "RRRRRRRRBBBBBBBBBNNNNNNNA"
    text = "KG1:K:1/2:R:" + "/".join(grid[i:i + 5] for i in range(0, 25, 5)) + ":AAAAAA"
    with pytest.raises(KitgenError, match="needs 9/8/7/1"):
        key_payload.decode(text)


def test_number_above_total_is_refused():
    key = key_deck.generate("s", editions.WORDS, 1)[0]
    text = key_payload.encode("k", key, b"x").replace("1/1", "3/2")
    with pytest.raises(KitgenError, match="above the deck size"):
        key_payload.decode(text)


def test_kit_id_outside_the_payload_alphabet_is_refused():
    with pytest.raises(KitgenError, match="cannot go in a QR payload"):
        key_payload.encode("kit_with_underscore", key_deck.generate("s", editions.WORDS, 1)[0], b"x")


@settings(max_examples=300, derandomize=True)
@given(st.text(max_size=200))
def test_any_string_is_a_payload_or_a_clear_error(text):
    try:
        key_payload.decode(text)
    except KitgenError as err:
        assert "\n" not in str(err) and len(str(err)) < 300
