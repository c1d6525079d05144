"""`kitgen verify` (and `preview`) on odd PDFs (issue 25 point 10, docs/design.md §9.3): a page too
large to render, a page tree that points at itself, thousands of pages without a kitgen code, a
file that is no PDF at all: each is one line, exit 2. kitgen's own PDFs still verify. The odd
PDFs are made here with pikepdf, the same every run; the subprocesses' timeout only guards
against a hang, no test measures time."""

import json

import pikepdf
import pytest

from kitgen import scans
from kitgen.errors import KitgenError

from oneline import kitgen, refused


def blank_pdf(path, pages=1, size=(595, 842)):
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page(page_size=size)
    pdf.save(path, deterministic_id=True)
    return path


def test_a_page_of_14400_points_is_refused_not_rendered(tmp_path):
    blank_pdf(tmp_path / "huge.pdf", size=(14_400, 14_400))
    refused(kitgen("verify", "huge.pdf", cwd=tmp_path), "huge.pdf: page 1 is 5,080 x 5,080 mm",
            "1,600 million pixels at 200 dpi", "at most 80 million", "too large to read at any --dpi")
    refused(kitgen("preview", "huge.pdf", "--out", "o", cwd=tmp_path), "page 1 is 5,080 x 5,080 mm")
    assert not any((tmp_path / "o").glob("*.png")) if (tmp_path / "o").exists() else True


def test_preview_refuses_a_page_too_large_before_writing_any(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.add_blank_page(page_size=(14_400, 14_400))
    pdf.save(tmp_path / "two.pdf", deterministic_id=True)
    refused(kitgen("preview", "two.pdf", "--pages", "all", "--out", "o", cwd=tmp_path), "two.pdf: page 2 is 5,080",
            "give --dpi 44 or less")
    assert not (tmp_path / "o").exists()
    result = kitgen("preview", "two.pdf", "--pages", "1", "--out", "o", cwd=tmp_path)
    assert result.returncode == 0 and [p.name for p in (tmp_path / "o").iterdir()] == ["two-p1.png"], result.stderr


def test_a_page_too_large_at_the_dpi_asked_names_a_dpi_that_fits(tmp_path):
    blank_pdf(tmp_path / "a2.pdf", size=(1191, 1684))           # A2 at 600 dpi: 139 million pixels
    line = refused(kitgen("verify", "a2.pdf", "--dpi", "600", cwd=tmp_path), "a2.pdf: page 1 is 420 x 594 mm",
                   "at 600 dpi", "give --dpi 454 or less")
    assert "139 million pixels" in line


def test_a_page_tree_that_points_at_itself_is_one_line(tmp_path):
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.Root.Pages.Kids = pikepdf.Array([pdf.Root.Pages])            # the tree's only kid is itself
    pdf.save(tmp_path / "loop.pdf", deterministic_id=True)
    refused(kitgen("verify", "loop.pdf", cwd=tmp_path), "loop.pdf: is not a readable PDF (")
    refused(kitgen("preview", "loop.pdf", cwd=tmp_path), "loop.pdf: is not a readable PDF (")
    pdf = pikepdf.new()
    pdf.add_blank_page()
    pdf.Root.Pages.Kids.append(pdf.Root.Pages)                       # a page, then the tree again
    pdf.Root.Pages.Count = 2
    pdf.save(tmp_path / "loop2.pdf", deterministic_id=True)
    refused(kitgen("verify", "loop2.pdf", cwd=tmp_path), "loop2.pdf:")


def test_five_thousand_blank_pages_stop_after_the_first_three(tmp_path):
    blank_pdf(tmp_path / "blank.pdf", pages=5_000)
    refused(kitgen("verify", "blank.pdf", cwd=tmp_path),
            f"blank.pdf: no kitgen key found on the first {scans.FIRST_PAGES} pages")


def test_pages_are_read_only_up_to_the_first_few_without_a_code(tmp_path, monkeypatch):
    """In process: pages after the first FIRST_PAGES are never rendered when none held a code."""
    blank_pdf(tmp_path / "blank.pdf", pages=10, size=(100, 100))
    rendered = []
    real = scans.render_page
    monkeypatch.setattr(scans, "render_page",
                        lambda document, index, *rest, **named: rendered.append(index) or real(document, index, *rest,
                                                                                                 **named))
    with pytest.raises(KitgenError, match="no kitgen key found on the first 3 pages"):
        list(scans.pdf_pages(tmp_path / "blank.pdf", 72, found=lambda: False))
    assert rendered == list(range(scans.FIRST_PAGES))


def test_more_pages_than_the_bound_are_refused(tmp_path, monkeypatch):
    blank_pdf(tmp_path / "many.pdf", pages=6, size=(100, 100))
    monkeypatch.setattr(scans, "MAX_PDF_PAGES", 5)
    with pytest.raises(KitgenError, match="many.pdf: has 6 pages; kitgen reads PDFs of up to 5 pages"):
        scans.open_pdf(tmp_path / "many.pdf")


def test_the_page_bound_holds_everything_kitgen_writes():
    from kitgen.cli import cli
    from kitgen.games.codenames import kitfile

    volume_pages = next(p for p in cli.commands["keys"].params if p.name == "volume_pages").type.max
    assert volume_pages == 10_000 and scans.MAX_PDF_PAGES >= volume_pages
    # a kit.pdf at its largest: every key and codename card a page, fronts and backs
    assert scans.MAX_PDF_PAGES >= 2 * (kitfile.MAX_KEYS + kitfile.MAX_CARDS)


@pytest.mark.parametrize("data", [b"", b"%PDF-1.4\n" + b"\x00garbage" * 100, b"not a pdf at all\n"],
                         ids=["empty", "garbage", "text"])
def test_a_file_that_is_no_pdf_is_one_line(tmp_path, data):
    (tmp_path / "odd.pdf").write_bytes(data)
    refused(kitgen("verify", "odd.pdf", cwd=tmp_path), "odd.pdf: is not a readable PDF (")
    refused(kitgen("preview", "odd.pdf", cwd=tmp_path), "odd.pdf: is not a readable PDF (")


# --- kitgen's own PDFs still verify ------------------------------------------------------------------

@pytest.fixture(scope="module")
def volume(tmp_path_factory):
    """A real key volume: `kitgen keys`, 8 keys in volumes of 2 pages."""
    out = tmp_path_factory.mktemp("keys")
    result = kitgen("keys", "--count", "8", "--volume-pages", "2", "--out", "o", cwd=out)
    assert result.returncode == 0, result.stdout + result.stderr
    (folder,) = (out / "o").iterdir()
    return folder


def test_a_key_volume_still_verifies(volume):
    result = kitgen("verify", str(volume / "keys-001.pdf"), "--kit", str(volume / "manifest.json"), cwd=volume)
    assert result.returncode == 0, result.stdout + result.stderr
    keys = json.loads((volume / "manifest.json").read_text("utf-8"))["keys"]
    on_first = sum(k["file"] == "keys-001.pdf" for k in keys)
    assert f"{on_first} key card(s) checked: {on_first} passed, 0 failed" in result.stdout


def _with_blank_pages_first(source, target, blanks: int, creator: str | None):
    """A copy of ``source``'s pages after ``blanks`` blank ones, its Creator ``creator`` (or none)."""
    with pikepdf.open(source) as pdf, pikepdf.new() as copy:
        box = pdf.pages[0].mediabox
        for _ in range(blanks):
            copy.add_blank_page(page_size=(float(box[2]), float(box[3])))
        copy.pages.extend(pdf.pages)
        if creator is not None:
            copy.docinfo["/Creator"] = creator
        copy.save(target, deterministic_id=True)


def test_only_a_pdf_kitgen_did_not_make_is_given_up_after_the_first_pages(volume, tmp_path):
    """A key on page 4: a PDF kitgen wrote (its Creator) is read on; another one is given up."""
    _with_blank_pages_first(volume / "keys-001.pdf", tmp_path / "scanned.pdf", 0, None)
    result = kitgen("verify", "scanned.pdf", "--kit", str(volume / "manifest.json"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr           # keys on page 1: read
    _with_blank_pages_first(volume / "keys-001.pdf", tmp_path / "late.pdf", 3, None)
    refused(kitgen("verify", "late.pdf", "--kit", str(volume / "manifest.json"), cwd=tmp_path),
            "late.pdf: no kitgen key found on the first 3 pages")
    _with_blank_pages_first(volume / "keys-001.pdf", tmp_path / "kitgen-late.pdf", 3, "kitgen 0.1.0")
    result = kitgen("verify", "kitgen-late.pdf", "--kit", str(volume / "manifest.json"), cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "(page 4)" in result.stdout
