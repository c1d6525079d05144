"""``kitgen serve``: the local web page (docs/design.md §11); the server is the library's
(``kitgen.serve``), which runs kitgen's commands in child processes."""

import click

from .errors import command


def make() -> click.Command:
    @command("serve", short_help="A local web page to check, build and download kits.")
    @click.option("--host", default="127.0.0.1", show_default=True, metavar="HOST",
                  help="The address to listen on; any but this machine's own (127.0.0.1, localhost, ::1) lets "
                       "other machines in (a warning says so).")
    @click.option("--port", default=0, type=click.IntRange(0, 65535), metavar="N",
                  help="The port (default: a free one).")
    @click.option("--no-browser", is_flag=True, help="Do not open the page in the default browser.")
    def serve(host, port, no_browser):
        """A local web page to build kits from: paste words or upload a deck or pictures, check,
        build, preview and download. It runs until Ctrl+C; every request needs the address's token
        (docs/design.md §11)."""
        import signal

        from kitgen import serve as server

        if not server.is_loopback(host):
            click.echo(f"kitgen: warning: listening on {host}, not 127.0.0.1: other machines can reach the page; "
                       "only the token in its address keeps them out", err=True)
        running = server.start(host, port)
        signal.signal(signal.SIGTERM, lambda *_: running.server.shutdown())   # as Ctrl+C: children and folders go
        click.echo(f"kitgen serve: open {running.url}")
        click.echo("Press Ctrl+C to stop.")
        try:
            if not no_browser:
                import webbrowser

                webbrowser.open(running.url)
            # joined a little at a time: a SIGTERM the kernel hands to the server's thread only runs its
            # handler (in this, the main thread) when this thread wakes, and a join without a timeout never does
            while running.thread.is_alive():
                running.thread.join(0.25)
        except KeyboardInterrupt:
            pass
        finally:
            running.stop()

    return serve
