"""The one exception type a user ever sees: a clear, one-line message."""


class KitgenError(Exception):
    """Bad input or an impossible request. The CLI prints ``str(err)`` on one
    line and exits with ``exit_code`` (2: bad input)."""

    exit_code = 2

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None):
        self.message = message
        self.source = source
        self.line = line
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = ""
        if self.source:
            where = f"{self.source}:{self.line}: " if self.line else f"{self.source}: "
        return " ".join(f"{where}{self.message}".split())
