"""What the tests of kitgen serve share: a token and an address, a deck to upload, and the app
and its test client as fixtures."""

import io

import pytest

from kitgen.serve import app as serve_app

TOKEN, ADDRESS = "a-test-token", "127.0.0.1:5555"
WORDS = ["Apple", "Bank", "Bat", "Crane", "Duck", "Egg", "Fork", "Goat", "Hat", "Ice", "Jam", "Kite", "Lamp",
         "Moon", "Nut", "Owl", "Pen", "Queen", "Rose", "Sun", "Tree", "Umbrella", "Van", "Wolf", "Yak", "Zebra"]
CSV = ("\n".join(WORDS) + "\n").encode()


@pytest.fixture
def app():
    return serve_app.create_app(TOKEN, ADDRESS)


@pytest.fixture
def client(app):
    return app.test_client()


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
