"""What the tests of kitgen serve share: a token and an address, a deck to upload (the app and
its test client are fixtures in conftest.py, where pytest finds them without an import)."""

import io

TOKEN, ADDRESS = "a-test-token", "127.0.0.1:5555"
WORDS = ["Apple", "Bank", "Bat", "Crane", "Duck", "Egg", "Fork", "Goat", "Hat", "Ice", "Jam", "Kite", "Lamp",
         "Moon", "Nut", "Owl", "Pen", "Queen", "Rose", "Sun", "Tree", "Umbrella", "Van", "Wolf", "Yak", "Zebra"]
CSV = ("\n".join(WORDS) + "\n").encode()


def deck(name="lesson.csv", data=CSV):
    return (io.BytesIO(data), name)


class Upload:
    """An upload as ``jobs.build`` takes one outside a request: a file name and its bytes."""

    def __init__(self, filename: str, data: bytes):
        self.filename, self.data = filename, data

    def read(self) -> bytes:
        return self.data

    def save(self, path: str) -> None:
        with open(path, "wb") as file:
            file.write(self.data)
