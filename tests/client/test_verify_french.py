"""``lanterne --lang fr verify`` gives its reasons in French: an unfinished log, a damaged entry, a cut file
(the verifier's sentences are ``Words``; an inner reason about malformed bytes stays the protocol's English)."""

from __future__ import annotations

from lanterne.client import i18n
from lanterne.protocol.log import read_log
from tests.support.logs import write_log
from lanterne.protocol.verify import verify_file
from lanterne.engines.core import Words
from tests.support.logs import make_log


def french_verify(capsys, *paths) -> str:
    from lanterne.client.cli import main

    try:
        main(["--lang", "fr", "verify", *map(str, paths)])
    finally:
        i18n.set_language("en")
    return capsys.readouterr().out


def test_an_unfinished_log_is_said_in_french(tmp_path, capsys):
    whole = make_log(tmp_path, "pueblo", seed="fr1")
    raws, _ = read_log(whole)
    cut = tmp_path / "cut.lanterne"
    write_log(cut, raws[:12])
    report = verify_file(str(cut))
    assert isinstance(report.problem, Words), "the verifier's words keep how they were made"
    out = french_verify(capsys, cut)
    assert "inachevé" in out and "le journal s'arrête à l'entrée 11" in out and "avant la fin de la partie" in out, out
    assert "the log stops" not in out and "seat" not in out, out


def test_a_damaged_entry_is_said_in_french(tmp_path, capsys):
    whole = make_log(tmp_path, "pueblo", seed="fr2")
    data = bytearray(whole.read_bytes())
    data[len(data) // 2] ^= 0x40
    bad = tmp_path / "bad.lanterne"
    bad.write_bytes(bytes(data))
    out = french_verify(capsys, bad)
    assert "INVALIDE" in out and ("personne n'est mis en cause" in out or "en faute" in out or "place" in out), out
    assert "nobody is blamed" not in out and "as its author" not in out, out
