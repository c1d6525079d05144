"""The web app of ``kitgen serve`` (docs/design.md §11): the Flask app (``create_app``) with its guard
(token, host, origin, form token) and routes, and the running ``Server`` (``start``)."""

import hmac
import secrets
import socket
import threading
from dataclasses import dataclass
from pathlib import Path

from ..errors import KitgenError
from . import limits
from .children import Work
from .fields import BUILD, GAME
from .jobs import Job, Jobs, build, builtin_decks, check
from .limits import BadRequest, quoted
from .workspace import Kit, sweep

TOKEN_COOKIE = "kitgen_token"


def form_token(token: str, nonce: str | None = None) -> str:
    """The page's anti-forgery token: a fresh nonce and its HMAC under the server's token. Only a page
    the server sent holds one (another origin cannot read the page), and ``POST`` needs it."""
    nonce = nonce or secrets.token_urlsafe(12)
    return f"{nonce}.{hmac.new(token.encode(), nonce.encode(), 'sha256').hexdigest()}"


def _form_token_holds(token: str, given: str) -> bool:
    nonce, dot, _ = given.partition(".")
    return bool(dot and nonce) and hmac.compare_digest(given.encode(), form_token(token, nonce).encode())


FORM_HEADER = "X-Kitgen-Form"           # the page's form token (``form_token``) on every POST
TOKEN_HEADER = "X-Kitgen-Token"         # or the token itself, for a script that was given it
FILE_FIELDS = ("deck", "layout")        # the fields that carry uploads


def is_loopback(host: str) -> bool:
    """Whether ``host`` is this machine only: localhost, 127.0.0.0/8 or ::1."""
    import ipaddress

    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def create_app(token: str, address: str, any_host: bool = False, work: Work | None = None):
    """The Flask app. Every request needs ``token`` (``?token=``, the cookie the first visit sets, or
    the ``X-Kitgen-Token`` header) and a Host header of ``address`` (``127.0.0.1:PORT``;
    ``localhost:PORT`` too), else 403; every POST must also come from the server's own page: an
    ``Origin`` (and ``Sec-Fetch-Site``), when sent, of the server itself, and the page's form token
    (``X-Kitgen-Form``) or the token in ``X-Kitgen-Token`` (docs/design.md §11)."""
    from flask import Flask, Response, abort, jsonify, request

    app = Flask(__name__)
    app.config.update(MAX_CONTENT_LENGTH=limits.MAX_REQUEST_BYTES, MAX_FORM_PARTS=limits.MAX_FILES + 100,
                      KITGEN_TOKEN=token, KITGEN_ADDRESS=address)
    work = work or Work()
    jobs = Jobs(work)
    app.extensions["kitgen"] = (work, jobs)

    def allowed_hosts() -> set[str]:
        host, _, port = app.config["KITGEN_ADDRESS"].rpartition(":")
        return {f"{host}:{port}", f"localhost:{port}"} if is_loopback(host) else {f"{host}:{port}"}

    def forbidden(text: str):
        abort(Response(f"forbidden: {text}\n", 403, mimetype="text/plain"))

    @app.before_request
    def guard():
        if not any_host and request.host not in allowed_hosts():
            forbidden("this server answers only at its own address")
        secret = app.config["KITGEN_TOKEN"].encode()
        given = request.args.get("token") or request.headers.get(TOKEN_HEADER) or request.cookies.get(TOKEN_COOKIE)
        if not hmac.compare_digest((given or "").encode(), secret):
            forbidden("open the address kitgen serve printed, with its ?token=")
        if request.method in ("GET", "HEAD"):
            return
        origin, site = request.headers.get("Origin"), request.headers.get("Sec-Fetch-Site")
        if origin is not None and origin != f"{request.scheme}://{request.host}":
            forbidden(f"a request from {origin[:60]} is not from kitgen's own page")
        if site is not None and site != "same-origin":
            forbidden(f"a {site[:20]} request is not from kitgen's own page")
        header = request.headers.get(TOKEN_HEADER) or ""
        if not (_form_token_holds(token, request.headers.get(FORM_HEADER) or "")
                or hmac.compare_digest(header.encode(), secret)):
            forbidden("send the page's form token (X-Kitgen-Form) or the token (X-Kitgen-Token); reload the page")

    @app.after_request
    def harden(response):
        if request.args.get("token") == app.config["KITGEN_TOKEN"]:
            response.set_cookie(TOKEN_COOKIE, app.config["KITGEN_TOKEN"], httponly=True, samesite="Strict")
        response.headers.update({
            "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; "
                                       "form-action 'self'; base-uri 'none'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "Cache-Control": "no-store",
            "Cross-Origin-Resource-Policy": "same-origin", "Cross-Origin-Opener-Policy": "same-origin"})
        return response

    @app.errorhandler(BadRequest)
    def refused(err: BadRequest):
        return jsonify(error=str(err)), err.status

    @app.errorhandler(KitgenError)
    def refused_kitgen(err: KitgenError):
        return jsonify(error=str(err)), 400

    @app.errorhandler(413)
    def too_large(err):
        return jsonify(error=f"the upload is too large: at most {limits.MAX_REQUEST_BYTES // 1_000_000} MB, "
                             f"{limits.MAX_FILES} files in one build"), 413

    def form() -> tuple[dict[str, str], list, list]:
        """The request's fields, its deck uploads and its layout uploads; an upload in any other
        field is refused."""
        for name in request.files:
            if name not in FILE_FIELDS:
                raise BadRequest(f"upload field {quoted(name)} is not one kitgen serve takes; upload into "
                                 f"{' or '.join(FILE_FIELDS)}")
        return request.form.to_dict(), request.files.getlist("deck"), request.files.getlist("layout")

    def zipped(kit: Kit) -> Response:
        return Response(kit.zip(), mimetype="application/zip",
                        headers={"Content-Disposition": f'attachment; filename="{kit.id}.zip"'})

    def admitted(run):
        work.admit()
        try:
            return run()
        finally:
            work.leave()

    @app.post("/build")
    def build_kit():
        fields, uploads, layouts = form()
        return admitted(lambda: zipped(build(fields, uploads, work=work, layouts=layouts)))

    @app.post("/game")
    def build_games():
        fields, uploads, layouts = form()
        return admitted(lambda: zipped(build(fields, uploads, command=GAME, work=work, layouts=layouts)))

    @app.post("/check")
    def check_deck():
        fields, uploads, layouts = form()
        fields.pop("make", None)            # the page's whole form: which command it would build with
        return admitted(lambda: jsonify(check(fields, uploads, work, layouts)))

    @app.post("/jobs")
    def start_job():
        fields, uploads, layouts = form()
        command = fields.pop("make", BUILD)
        if command not in (BUILD, GAME):
            raise BadRequest(f"make {quoted(command)}: build (a kit) or game (single-game sheets)")
        return jsonify(job=jobs.start(fields, uploads, command, layouts)), 202

    def job_or_404(key: str) -> Job:
        job = jobs.get(key)
        if job is None:
            abort(404)
        return job

    @app.get("/jobs/<key>")
    def job_state(key):
        return jsonify(job_or_404(key).state())

    @app.get("/jobs/<key>/kit.zip")
    def job_zip(key):
        return zipped(job_or_404(key).kit or abort(404))

    @app.get("/jobs/<key>/files/<path:name>")
    def job_file(key, name):
        kit = job_or_404(key).kit or abort(404)
        if name not in kit.files:
            abort(404)
        kinds = {".pdf": "application/pdf", ".html": "text/html", ".json": "application/json", ".png": "image/png",
                 ".md": "text/markdown", ".txt": "text/plain"}
        kind = kinds.get(Path(name).suffix, "application/octet-stream")
        attach = "inline" if request.args.get("view") == "1" else "attachment"
        return Response(kit.files[name], mimetype=kind,
                        headers={"Content-Disposition": f'{attach}; filename="{Path(name).name}"'})

    @app.get("/jobs/<key>/previews/<name>")
    def job_preview(key, name):
        shown = job_or_404(key).previews.get(name) or abort(404)
        return Response(shown, mimetype="image/png")

    @app.get("/")
    def page():
        from .. import serve_page

        return Response(serve_page.html(builtin_decks(), form_token(token)), mimetype="text/html")

    @app.get("/app.js")
    def script():
        from .. import serve_page

        return Response(serve_page.SCRIPT, mimetype="text/javascript")

    @app.get("/app.css")
    def style():
        from .. import serve_page

        return Response(serve_page.STYLE, mimetype="text/css")

    return app


@dataclass
class Server:
    """A running server: its address (with the token) and how to stop it."""

    url: str
    thread: threading.Thread
    server: object
    app: object = None

    def stop(self) -> None:
        """Stop answering, kill every child and remove every folder of this server."""
        self.server.shutdown()
        self.thread.join()
        work, jobs = self.app.extensions["kitgen"]
        work.stop()
        jobs.clear()


def start(host: str = "127.0.0.1", port: int = 0, token: str | None = None) -> Server:
    """Serve in a thread on ``host`` (a free port for 0); ``Server.url`` is the address to open."""
    import logging

    from werkzeug.serving import make_server

    logging.getLogger("werkzeug").setLevel(logging.WARNING)      # no request lines: they would show the token
    token = token or secrets.token_urlsafe(24)
    sweep()                 # what servers killed before they could clean up left behind
    wildcard = host in ("0.0.0.0", "::", "")
    app = create_app(token, "", any_host=wildcard)
    try:       # bound here, so that a port in use is kitgen's one line (Werkzeug would print and exit)
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as listening:
            listening.bind((host, port))
            listening.listen(128)
            server = make_server(host, listening.getsockname()[1], app, threaded=True, fd=listening.fileno())
    except OSError as err:
        raise KitgenError(f"cannot listen on {host}:{port}: {err.strerror or err}; choose another --host or --port") \
            from None
    shown = f"[{host}]" if ":" in host else host
    app.config["KITGEN_ADDRESS"] = f"{shown}:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return Server(f"http://{shown}:{server.server_address[1]}/?token={token}", thread, server, app)
