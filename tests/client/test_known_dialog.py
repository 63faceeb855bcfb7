"""The join dialog and the joiner's status with the list of known players: unknown, known, a changed key.

Two real lobby apps over 127.0.0.1 (joined by HOST:PORT), each with its own
identity and its own known_peers.json seeded before the join; the host's
dialog and the joiner's status are read, Accept or Decline is clicked, and
the files are read back.
"""

from __future__ import annotations

from lanterne.client.app import LanterneApp
from lanterne.client.known_peers import FILE, KnownPeersFile
from lanterne.client.screens.invite import InviteScreen
from lanterne.client.screens.lobby import KnownPeerList, LobbyScreen
from lanterne.client.settings import Settings
from lanterne.protocol.identity import Identity, safety_code, safety_lines, safety_part
from lanterne.protocol.net.discovery import Advert, TableHint
from lanterne.client.screens.invite import JoinAddressScreen
from lanterne.client.screens.game import GameScreen
from tests.support.lobby import FAST, LOOPBACK, unique
from tests.support.toy_game import GAME as TOY
from tests.support.waiting import until


def app_with(name: str, me: Identity, folder, known) -> LanterneApp:
    def start() -> LobbyScreen:
        return LobbyScreen(Settings(display_name=name), identity=me, interfaces=LOOPBACK, log_dir=folder / "games",
                           discover=False, games=[TOY], options=FAST, known_peers=known)

    return LanterneApp(settings=Settings(display_name=name, computer_delay=0.0), start=start)


async def join_by_address(pa, pb) -> None:
    """The host opens its table (o: at 80x24 the button is scrolled away), the guest types its address."""
    host = pa.app.screen
    await pa.press("o")
    await until(lambda: host.pending is not None and host.pending.listening is not None, pa, pb,
                what="the host listening")
    ip, port = host.pending.listening
    await pb.press("a")
    await until(lambda: isinstance(pb.app.screen, JoinAddressScreen), pb)
    await pb.pause()
    pb.app.screen.query_one("#address-input").value = f"{ip}:{port}"
    assert await pb.click("#address-join")
    await until(lambda: isinstance(pa.app.screen, InviteScreen), pa, pb, what="the invitation dialog")
    await pa.pause()


def texts(screen) -> str:
    return "\n".join(str(w.render()) for w in screen.query("Static"))


async def ask(tmp_path, seed_host=(), seed_guest=(), answer: str = "#invite-accept"):
    """Ann hosts, Bob asks by address; the lists are seeded with (whose, name, key, date) first.
    Returns (dialog texts, the dialog, the joiner's status while pending, the two files)."""
    ann, bob = unique("Ann"), unique("Bob")
    ann_id, bob_id = Identity.from_seed(b"ann"), Identity.from_seed(b"bob")
    files = {who: tmp_path / who / FILE for who in ("ann", "bob")}
    ids = {"ann": (ann, ann_id.public), "bob": (bob, bob_id.public)}
    for path, seeds in ((files["ann"], seed_host), (files["bob"], seed_guest)):
        for who, key, day in seeds:
            name = ids[who][0]
            KnownPeersFile(path).remember(name, key if key is not None else ids[who][1], day)
    app_a = app_with(ann, ann_id, tmp_path / "ann", files["ann"])
    app_b = app_with(bob, bob_id, tmp_path / "bob", files["bob"])
    async with app_a.run_test(size=(80, 24)) as pa, app_b.run_test(size=(80, 24)) as pb:
        await join_by_address(pa, pb)
        dialog = pa.app.screen
        assert isinstance(dialog, InviteScreen) and dialog.joiner == bob
        code = safety_code(ann_id.public, bob_id.public)
        assert dialog.safety_code == code
        # the code shows whole, one key's 30 digits a line, inside the dialog at 80x24
        box = dialog.query_one("#invite-box").region
        assert box.bottom <= 24 and box.right <= 80
        assert dialog.query_one("#invite-accept").region.bottom <= box.bottom
        shown = str(dialog.query_one("#invite-code").render()).splitlines()
        assert [line.removeprefix("Safety code").replace("(you)", "").strip() for line in shown] == safety_lines(code)
        mine = " ".join(safety_part(ann_id.public)[i:i + 5] for i in range(0, 30, 5))
        assert [line.endswith(f"{mine}  (you)") for line in shown] == [line == mine for line in safety_lines(code)]
        guest = pb.app.screen
        await until(lambda: "Safety code with" in guest.status_text, pa, pb, what="the joiner's code")
        pending = guest.status_text
        bob_line = " ".join(safety_part(bob_id.public)[i:i + 5] for i in range(0, 30, 5))
        assert f"    {bob_line}  (you)" in pending and pending.count("(you)") == 1
        seen = texts(dialog)
        dialog.known_classes = set(dialog.query_one("#invite-known").classes)  # read before the dialog closes
        assert await pa.click(answer)
        if answer == "#invite-accept":
            await until(lambda: guest.pending is None or guest.pending.joined and guest.pending.peer.seats, pa, pb,
                        what="the joiner seated")
            await until(lambda: KnownPeersFile(files["bob"]).check(ann, ann_id.public).status == "known", pa, pb,
                        what="the joiner remembering its host")
            # the table is full, so the game starts: leave once both boards are up, not while they mount
            # (a board's header mounted as its app shuts down asks for a title that is gone)
            await until(lambda: isinstance(pa.app.screen, GameScreen) and isinstance(pb.app.screen, GameScreen),
                        pa, pb, what="both boards")
            await pa.pause()
            await pb.pause()
        else:
            await until(lambda: "declined" in pa.app.screen.status_text, pa, pb, what="the decline")
    return seen, dialog, pending, {w: KnownPeersFile(p) for w, p in files.items()}, (ann, bob), (ann_id, bob_id)


async def test_an_unknown_joiner_is_a_first_meeting_and_remembered_once_accepted(tmp_path):
    seen, dialog, pending, files, (ann, bob), (ann_id, bob_id) = await ask(tmp_path)
    assert dialog.known.status == "new" and dialog.known.compare
    assert f"First meeting: you never met {bob} before." in seen
    assert "Compare it aloud: accept only if both screens show it." in seen
    assert f"First meeting: you never met {ann} before." in pending
    host_list, guest_list = files["ann"], files["bob"]
    assert host_list.check(bob, bob_id.public).status == "known"     # the host accepted after comparing
    assert guest_list.check(ann, ann_id.public).status == "known"    # the host took us
    assert [p.name for p in host_list.peers.peers] == [bob] and [p.name for p in guest_list.peers.peers] == [ann]


async def test_a_known_joiner_is_marked_and_the_comparison_is_optional(tmp_path):
    seen, dialog, pending, files, (ann, bob), (ann_id, bob_id) = await ask(
        tmp_path, seed_host=[("bob", None, "2024-12-24")], seed_guest=[("ann", None, "2024-12-24")])
    assert dialog.known.status == "known" and not dialog.known.compare
    assert f"Known: you met {bob} with this key on 2024-12-24; comparing the code again is optional." in seen
    assert "You may compare it again: both screens show the same." in seen and "Compare it aloud" not in seen
    assert "-known" in dialog.known_classes
    assert f"Known: you met {ann} with this key on 2024-12-24" in pending
    peer = files["ann"].peers.peers[0]
    assert (peer.first_seen, len(files["ann"].peers)) == ("2024-12-24", 1) and peer.last_seen != "2024-12-24"


async def test_a_changed_key_is_a_warning_and_a_declined_join_is_not_remembered(tmp_path):
    old = Identity.from_seed(b"old phone").public
    seen, dialog, pending, files, (ann, bob), (ann_id, bob_id) = await ask(
        tmp_path, seed_host=[("bob", old, "2025-01-02")], seed_guest=[("ann", old, "2025-01-03")],
        answer="#invite-decline")
    assert dialog.known.status == "changed" and dialog.known.compare
    assert f"Warning: {bob}'s key changed since 2025-01-02: compare the safety code again." in seen
    assert "Compare it aloud again: accept only if both show it." in seen
    assert "-changed" in dialog.known_classes
    assert f"Warning: {ann}'s key changed since 2025-01-03: compare the safety code again." in pending
    assert files["ann"].check(bob, bob_id.public).status == "changed"   # declined: still the old key only
    assert files["bob"].check(ann, ann_id.public).status == "changed"


async def test_the_lobby_list_marks_a_known_name_and_warns_of_a_changed_key(tmp_path):
    me, bea, new = (Identity.from_seed(s) for s in (b"me", b"bea", b"bea again"))
    known = tmp_path / FILE
    KnownPeersFile(known).remember("Bea", bea.public, "2025-02-01")
    KnownPeersFile(known).remember("Cyd", Identity.from_seed(b"cyd").public, "2025-02-02")
    app = app_with("Ann", me, tmp_path, known)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        peers = pilot.app.screen.query_one(KnownPeerList)
        table = TableHint("toy", "standard", 1)
        peers.put(Advert("Bea", new.fingerprint, 4000, ("10.0.0.2",), table=table, instance="bea"))
        peers.put(Advert("Cyd", Identity.from_seed(b"cyd").fingerprint, 4001, ("10.0.0.3",), table=table,
                         instance="cyd"))
        peers.put(Advert("Dan", Identity.from_seed(b"dan").fingerprint, 4002, ("10.0.0.4",), instance="dan"))
        await pilot.pause()
        lines = {str(peers.get_option_at_index(i).prompt).split()[0]: str(peers.get_option_at_index(i).prompt)
                 for i in range(peers.option_count)}
        assert "KEY CHANGED since 2025-02-01: compare the code again" in lines["Bea"]
        assert "a key you met on 2025-02-02, not yet checked" in lines["Cyd"] and "CHANGED" not in lines["Cyd"]
        assert "met on" not in lines["Dan"] and "CHANGED" not in lines["Dan"]

        # anyone may repeat Cyd's name and public fingerprint at another address: its own line, never proven
        peers.put(Advert("Cyd", Identity.from_seed(b"cyd").fingerprint, 4009, ("10.0.0.66",), table=table,
                         instance="fake-cyd"))
        await pilot.pause()
        cyds = [str(peers.get_option_at_index(i).prompt) for i in range(peers.option_count)
                if str(peers.get_option_at_index(i).prompt).startswith("Cyd")]
        assert len(cyds) == 2 and any("10.0.0.3" in c for c in cyds) and any("10.0.0.66" in c for c in cyds)
        assert all("not yet checked" in c and "known since" not in c for c in cyds)
