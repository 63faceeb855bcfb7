"""`lanterne serve`: the app in a web browser, through textual-serve.

textual-serve (the Textual team's own web server for Textual apps) runs a new
``lanterne`` app for each browser tab that opens the page, and relays its
screen and keys over a websocket. Every such app runs on *this* machine, as
this machine's player: its identity key, display name, settings and games
folder. Whoever opens the page plays as that player, so the server listens
on 127.0.0.1 unless ``--host`` asks otherwise, and says so when it does not.

On top of textual-serve, every request must name this machine (an IP
address, ``localhost``, the ``--host`` given or this machine's own name), so
a web site cannot reach the server through a name of its own that resolves
here (DNS rebinding); and the websocket that drives the app refuses a page
of another origin (a web site the player visits cannot open the app in the
background).

And nobody but whoever ran the command gets in: it prints an address with a
secret token (as Jupyter does), and the page, the websocket and downloads
answer 403 without it. The page sets it as a cookie (HttpOnly, SameSite
Strict, named after the port), so the page's own websocket carries it; any
other local process or user of this machine, which reaches the port but not
the command's output, is turned away.
"""

from __future__ import annotations

from lanterne.client.cli import UserError
from lanterne.client import cli
from lanterne.client.i18n import N_, _, language
from lanterne.client.settings import Settings, identity_fingerprint

import argparse
import asyncio
import hmac
import ipaddress
import os
import secrets
import shlex
import signal
import socket
import sys
from urllib.parse import urlsplit

NAME = "serve"
HELP = N_("serve the app to a web browser (textual-serve): whoever opens the page plays as this "
           "machine's player; on 127.0.0.1 unless --host says otherwise")

DEFAULT_PORT = 8000
SERVED_ENV = "LANTERNE_SERVED"
"""Set in each app the server starts, to ``HOST:PORT``: the app knows it runs in a browser."""

SHUTDOWN_SECONDS = 1.0
"""On Ctrl+C or SIGTERM, how long open tabs may go on before their apps are told to quit."""

TOKEN_BYTES = 32
"""The secret of a served page: 256 random bits, new for each run of the command."""

CHILD_CODE = "from lanterne.client.commands.serve import child; raise SystemExit(child({lang!r}))"


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(_("{text!r} is not a port number").format(text=text)) from None
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(_("port {value}: give 1..65535").format(value=value))
    return value


def add_arguments(p) -> None:
    p.add_argument("--port", type=port_number, default=DEFAULT_PORT,
                   help=_("TCP port of the web page (default {DEFAULT_PORT})").format(DEFAULT_PORT=DEFAULT_PORT))
    p.add_argument("--host", default="127.0.0.1", metavar="ADDRESS",
                   help=_("address to listen on (default 127.0.0.1: this machine only); 0.0.0.0 or a LAN "
                        "address lets others reach it, and whoever does plays as you"))


# --------------------------------------------------------------------------
# where it listens


def resolve(host: str) -> list[str]:
    """The addresses ``host`` names; UserError (one line) when it names none."""
    if not host.strip():
        raise UserError(_("--host is empty: give an address such as 127.0.0.1 or 0.0.0.0"))
    try:
        infos = socket.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as e:
        raise UserError(_("--host {host!r} is not an address of this machine ({value})").format(
            host=host, value=getattr(e, 'strerror', None) or e)
                        ) from None
    return sorted({str(info[4][0]) for info in infos})


def only_this_machine(addresses: list[str]) -> bool:
    """Whether every address is a loopback one (127.0.0.0/8, ::1)."""
    try:
        return bool(addresses) and all(ipaddress.ip_address(a.split("%")[0]).is_loopback for a in addresses)
    except ValueError:
        return False


def url_host(host: str) -> str:
    """``host`` as it goes in a URL: an IPv6 address in brackets; any address (0.0.0.0, ::) as this machine's."""
    if host in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


def names_of_this_machine(host: str) -> set[str]:
    """Host names a request may use besides an IP address (lower case)."""
    names = {"localhost", host.lower()}
    with_dots = socket.gethostname().lower()
    names |= {with_dots, with_dots.split(".")[0], with_dots.split(".")[0] + ".local"}
    try:
        names.add(socket.getfqdn().lower())
    except OSError:
        pass
    return {n for n in names if n}


def request_names_this_machine(host_header: str | None, allowed: set[str]) -> bool:
    """Whether a request's Host header names this machine (an IP address or an allowed name)."""
    if not host_header:
        return False
    name = host_header.strip().lower()
    if name.startswith("["):                     # [::1]:8000
        name = name[1:name.find("]")] if "]" in name else name
    elif name.count(":") == 1:                   # host:port
        name = name.rsplit(":", 1)[0]
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        return name.rstrip(".") in allowed


def cookie_name(port: int) -> str:
    """The token's cookie: one per port, since a browser shares a host's cookies between its ports."""
    return f"lanterne-serve-{port}"


def has_token(request, token: str, port: int) -> bool:
    """Whether a request carries the token (in its address, or as the page's cookie); compared in constant time."""
    given = request.query.get("token") or request.cookies.get(cookie_name(port)) or ""
    return hmac.compare_digest(given.encode(), token.encode())


def same_origin(origin: str | None, host_header: str | None) -> bool:
    """Whether a websocket's Origin is the page's own (absent: not a browser page, allowed)."""
    if origin is None:
        return True

    return bool(host_header) and urlsplit(origin).netloc.lower() == host_header.strip().lower()


# --------------------------------------------------------------------------
# who plays


def who_plays() -> tuple[str, str]:
    """(display name, key) of this machine's player, as said on the page and in the output."""
    name = Settings.load().display_name
    fingerprint = identity_fingerprint()
    return name, (f"key {fingerprint}" if fingerprint else "a key made on first use")


def served_title() -> str:
    """The app's title in a browser, in the header of every screen: whose player it is."""
    name, _key = who_plays()
    return f"Lanterne in a browser: you play as {name}, {socket.gethostname()}'s player"


def child(lang: str | None = None) -> int:
    """What each browser tab runs: the app, its header saying whose player it is, in the server's language."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.app import LanterneApp

    try:
        LanterneApp.TITLE = served_title()
    except Exception:  # noqa: BLE001 - the notice never stops the app
        pass
    return cli.main(["--lang", lang] if lang else [])


def child_command() -> str:
    """The shell command textual-serve runs per tab: this Python, this app, the language of ``lanterne serve``."""
    return shlex.join([sys.executable, "-c", CHILD_CODE.format(lang=language())])


# --------------------------------------------------------------------------


def data_folder_busy() -> str | None:
    """Why a new app cannot start now (another app holds the data folder: client/single.py), or None."""
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.single import AlreadyRunning, only_instance

    try:
        with only_instance():
            return None
    except AlreadyRunning as e:
        return str(e)


def make_server(host: str, port: int, title: str, token: str):
    # what this command alone needs: --version and --help import every command module
    from aiohttp import web
    from textual_serve.server import Server

    allowed = names_of_this_machine(host)

    class LanterneServer(Server):
        """textual-serve's server, checking whom a request names and where a websocket comes from."""

        def check(self, request) -> None:
            if not request_names_this_machine(request.host, allowed):
                raise web.HTTPForbidden(text="lanterne serve: open this page by this machine's address or name\n")
            if not has_token(request, token, port):
                raise web.HTTPForbidden(text="lanterne serve: open the address `lanterne serve` printed, with its "
                                             "token\n")

        async def handle_index(self, request):
            self.check(request)
            # the page's links and websocket go back to the address the browser used (0.0.0.0 is no address)
            self.public_url = f"{request.scheme}://{request.host}"
            page = await super().handle_index(request)
            page.set_cookie(cookie_name(port), token, httponly=True, samesite="Strict", path="/")
            return page

        async def handle_websocket(self, request):
            self.check(request)
            if not same_origin(request.headers.get("Origin"), request.host):
                raise web.HTTPForbidden(text="lanterne serve: a page of another site cannot open the app\n")
            busy = data_folder_busy()
            if busy:  # a second tab, or the terminal app open: the page says "Session ended", here why
                print(f"lanterne: a browser tab was turned away: {busy}", flush=True)
                raise web.HTTPConflict(text=f"lanterne serve: {busy}\n")
            return await super().handle_websocket(request)

        async def handle_download(self, request):
            self.check(request)
            return await super().handle_download(request)

        async def on_startup(self, app) -> None:  # our lines, said before listening (see run)
            pass

        def serve(self, debug: bool = False) -> None:
            """textual-serve's own, but Ctrl+C or SIGTERM end it at once: an open tab's app is told to
            quit and the page says "Session ended" (textual-serve waits for open tabs up to 60 s)."""
            self.debug = debug
            self.initialize_logging()
            loop = asyncio.new_event_loop()
            for number in (signal.SIGINT, signal.SIGTERM, getattr(signal, "SIGHUP", None)):
                if number is not None:
                    try:
                        loop.add_signal_handler(number, self.request_exit)
                    except (NotImplementedError, RuntimeError, ValueError):
                        pass
            try:
                web.run_app(self._make_app(), host=self.host, port=self.port, handle_signals=False, loop=loop,
                            print=lambda *args: None, shutdown_timeout=SHUTDOWN_SECONDS)
            finally:
                loop.close()

    return LanterneServer(child_command(), host=host, port=port, title=title,
                          public_url=f"http://{url_host(host)}:{port}")


def run(args) -> int:
    addresses = resolve(args.host)
    try:  # textual-serve is a dependency; a broken install says so in one line
        import textual_serve.server  # noqa: F401
    except ImportError as e:
        raise UserError(_("textual-serve is not installed ({e}): pip install textual-serve").format(e=e)) from None
    local = only_this_machine(addresses)
    url = f"http://{url_host(args.host)}:{args.port}"
    name, key = who_plays()
    # what this command alone needs: --version and --help import every command module
    from lanterne.client.single import data_folder

    title = f"Lanterne on {socket.gethostname()}: you play as {name}, this machine's player"
    token = secrets.token_urlsafe(TOKEN_BYTES)
    server = make_server(args.host, args.port, title, token)
    # bind first, so a taken port or a foreign address is one line, not a traceback
    probe = socket.socket(socket.AF_INET6 if ":" in addresses[0] else socket.AF_INET, socket.SOCK_STREAM)
    try:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        probe.bind((addresses[0], args.port))
    except OSError as e:
        raise UserError(_("cannot listen on {host} port {port}: {value}").format(
            host=args.host, port=args.port, value=e.strerror or e)) from None
    finally:
        probe.close()
    os.environ[SERVED_ENV] = f"{args.host}:{args.port}"
    if not local:
        sys.stderr.write(f"lanterne: warning: serving on {args.host}, not only this machine: anyone who reaches "
                         f"port {args.port} plays as you ({name})\n")
    print(f"Serving Lanterne on {url}/?token={token}", flush=True)
    print(f"Whoever opens that address plays as {name} ({key}, data folder {data_folder()}); without its token "
          f"the page answers 403. One tab at a time, as one app at a time per data folder. Ctrl+C stops.", flush=True)
    try:
        server.serve()
    except OSError as e:
        raise UserError(_("cannot listen on {host} port {port}: {value}").format(
            host=args.host, port=args.port, value=e.strerror or e)) from None
    return 0
