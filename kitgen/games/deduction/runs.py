"""What the kernel's commands do for the deduction game (``family.FAMILY.runs``), how a theme file
is known as the game's (``owns``) and how ``verify`` knows a case slip (``claims``)."""

from pathlib import Path

import click

from kitgen.cli.common import BOX_FILES, echo_boxes, echo_files, echo_proof, report, say_pdfx, with_progress
from kitgen.errors import KitgenError


def owns(kit_file: str) -> bool:
    """Whether a kit file is a deduction theme (``game: deduction``)."""
    from . import theme

    return theme.is_theme(Path(kit_file))


def claims(target: str, dpi: int) -> bool:
    """Whether ``verify``'s TARGET holds case slips: a slip's payload, or an image or PDF whose first
    codes are slips' and none a key card's."""
    from kitgen import scans

    from . import case_payload

    kind, value = scans.classify(target)
    if kind == "payload":
        return case_payload.is_case_slip(scans.payload_of(value))
    if kind == "kit":                   # a built kit's folder: a deduction kit's, by its manifest
        import json

        try:
            return json.loads(scans.manifest_text(str(value / "manifest.json"))).get("game") == "deduction"
        except (KitgenError, ValueError, AttributeError):
            return False
    texts = scans.qr_texts(kind, value, dpi) if kind == "image" else []
    if kind == "pdf":
        # the first page with a code tells (a PDF not kitgen's: among its first scans.FIRST_PAGES)
        for image in scans.pdf_pages(value, min(dpi, 150), found=lambda: False, asked=dpi):
            import zxingcpp

            texts = [c.text for c in zxingcpp.read_barcodes(image.convert("RGB"))]
            if texts:
                break
    return any(case_payload.is_case_slip(t) for t in texts) and not any(t.startswith("KG1:") for t in texts)


def box_files(kit, prepared, thickness_mm: float | None, sleeved: bool):
    """``boxes.pdf`` and ``boxes.json`` of a deduction kit: its decks and its tokens (docs/design.md §8.12)."""
    from kitgen.render import boxes as box_pages

    from . import build as family

    theme = kit.theme
    about = box_pages.KitInfo(theme.id, theme.name, theme.language, kit.paper, kit.colour, "deduction")
    return box_pages.kit_files(about, prepared, family.BOXES, family.STANDS, family.token_decks(kit, prepared),
                               thickness_mm, sleeved, getattr(kit, "pdfx", None))


def build(request) -> None:
    from . import build as deduction

    values = request.values
    kit = deduction.load(request.kit_file, values["lang"], values["players"], values["paper"], values["board_paper"],
                         values["duplex"], values["colour"], request.print_options, values["seed"],
                         values["layout"], values["ink"])
    more = box_files(kit, deduction.prepare(kit), *request.boxing)[0] if request.boxing else ()
    target, files, manifest = with_progress(lambda progress: deduction.build(kit, Path(values["out_dir"]), progress,
                                                                          more))
    what = {"board.pdf": "the board" + (", in pieces to glue" if files[0].pages > 1 else ""),
            "cards.pdf": "case cards (three decks) and evidence cards", "tiles.pdf": "suspect and crime tiles",
            "tokens.pdf": f"tokens for {kit.players} players", "aids.pdf": "player aids",
            "notepad.pdf": "detective's notepads, a sheet a player", "rules.pdf": "rules",
            "setup.pdf": "setup sheets and sealed case slips", "kit.pdf": "everything, to print in one go",
            **BOX_FILES}
    click.echo(f"Built {kit.theme.name} ({kit.theme.id}, {kit.players} players) into {target}/")
    echo_files(files, manifest, what, kit.png_dpi, ("boxes.json",))
    click.echo(f"  {'manifest.json':<14} {len(manifest['slips'])} case slips with their QR payloads and positions")
    say_pdfx(manifest)


def proof(request) -> None:
    from . import build as deduction, proof as proofing

    values = request.values
    kit = deduction.load(request.kit_file, values["lang"], values["players"], seed=values["seed"])
    result = proofing.examine(kit)
    echo_proof(result, proofing.write(result, Path(values["out_dir"])))


def box(request) -> None:
    from kitgen import output

    from . import build as deduction

    values = request.values
    kit = deduction.load(request.kit_file, values["lang"], values["players"], values["paper"], None, None,
                         values["colour"])
    files, manifest = box_files(kit, deduction.prepare(kit), values["card_thickness"], values["sleeved"])
    target = Path(values["out_dir"]) / kit.theme.id
    output.add_files(target, files)
    echo_boxes(target, files, manifest, kit.theme.id)


def verify(request) -> None:
    from kitgen import scans

    from . import verify as slips

    values = request.values
    seed, manifest = values["seed"], values["manifest"]
    if seed is not None and manifest is not None:
        raise KitgenError("give --seed or --kit, not both")
    target = request.kit_file
    kind, folder = scans.classify(target)
    if kind == "kit":                   # a deduction kit's folder: its case slips, with its own manifest
        target, manifest = str(folder / "setup.pdf"), manifest or (None if seed else str(folder / "manifest.json"))
    report(slips.verify(target, seed, manifest, values["at"], values["dpi"]), "case slip(s)",
           "the slip of its kit" if (seed or manifest) else "well formed (give --seed or --kit to check it)")
