"""What the kernel's commands do for the Codenames family (``family.FAMILY.runs``): each gets a
``kitgen.cli.common.Request`` and runs the family's library, reporting as the other families do."""

from pathlib import Path

import click

from kitgen.cli.common import (
    BOX_FILES,
    TerminalProgress,
    echo_boxes,
    echo_files,
    echo_proof,
    report,
    say_pdfx,
    with_progress,
)
from kitgen.errors import KitgenError

BUILT = {"codenames.pdf": "codename cards", "keys.pdf": "key cards", "tiles.pdf": "tiles", "rules.pdf": "rules",
         "tokens.pdf": "timer tokens", "campaign.pdf": "the campaign: a map of missions to tick off",
         "kit.pdf": "everything, to print in one go", **BOX_FILES}


def build(request) -> None:
    from . import build as builder, kitfile

    values = request.values
    kit = kitfile.load(kitfile.kit_path(request.kit_file, values["edition"], values["lang"]), deck=values["deck"],
                       seed=values["seed"], keys=values["keys"], paper=values["paper"], duplex=values["duplex"],
                       layout=values["layout"], language=values["lang"], ink=values["ink"], colour=values["colour"],
                       print_options={**request.print_options, "verify_url": values["verify_url"],
                                      "campaign": values["campaign"]})
    if values["campaign"] and not kit.edition.cooperative:
        raise KitgenError(f"--campaign is the duet edition's campaign sheet; the {kit.edition.name} edition has none "
                          "(add --edition duet)")
    more = box_files(kit, builder.prepare(kit), *request.boxing)[0] if request.boxing else ()
    target, files, manifest = with_progress(lambda progress: builder.build(kit, Path(values["out_dir"]), progress,
                                                                          more))
    counts = dict(BUILT)
    if kit.edition.cooperative:
        counts["keys.pdf"] = "key cards: side A on the fronts, side B on the backs"
    page = next(f for f in files if f.name == "verify.html")
    click.echo(f"Built {kit.name} ({kit.id}) into {target}/")
    echo_files(files, manifest, counts, kit.png_dpi, ("boxes.json", page.name))
    click.echo(f"  {'verify.html':<14}       {len(page.data) / 1024:>12.0f} KiB  shows and checks a key from its QR, "
               "offline, on a phone too")
    click.echo(f"  {'manifest.json':<14} {len(manifest['keys'])} keys with their QR payloads and positions")
    say_pdfx(manifest)


def box_files(kit, prepared, thickness_mm: float | None, sleeved: bool):
    """``boxes.pdf`` and ``boxes.json`` of a Codenames kit (docs/design.md §8.12)."""
    from kitgen.render import boxes as box_pages

    from . import build as builder

    about = box_pages.KitInfo(kit.id, kit.name, kit.language, kit.paper, kit.colour, "codenames")
    return box_pages.kit_files(about, prepared, builder.BOXES, builder.STANDS, [], thickness_mm, sleeved,
                               getattr(kit, "pdfx", None))


def box(request) -> None:
    from kitgen import output

    from . import build as builder, kitfile

    values = request.values
    kit = kitfile.load(kitfile.kit_path(request.kit_file, values["edition"], values["lang"]), deck=values["deck"],
                       keys=values["keys"], paper=values["paper"], language=values["lang"], colour=values["colour"])
    files, manifest = box_files(kit, builder.prepare(kit), values["card_thickness"], values["sleeved"])
    target = Path(values["out_dir"]) / kit.id
    output.add_files(target, files)
    echo_boxes(target, files, manifest, kit.id)


def proof(request) -> None:
    from . import kitfile, proof as proofing

    values = request.values
    kit = kitfile.load(kitfile.kit_path(request.kit_file, values["edition"], values["lang"]), deck=values["deck"],
                       seed=values["seed"], keys=values["keys"], strict=False, language=values["lang"])
    result = proofing.examine(kit)
    echo_proof(result, proofing.write(result, Path(values["out_dir"])))


def game(request) -> None:
    from . import single_game_files

    values = request.values
    result = single_game_files.make(deck=values["deck"], edition=values["edition"], language=values["lang"],
                                    seed=values["seed"], count=values["count"], fmt=values["format"],
                                    ink=values["ink"], out_dir=Path(values["out_dir"]), layout=values["layout"])
    if result.default_seed and values["format"] != "pdf":
        click.echo("kitgen: warning: no --seed: the built-in seed is public, so anyone with kitgen can derive "
                   "the keys from the game codes; give your own --seed for online games", err=True)
    for path in result.files:
        click.echo(str(path))


def verify(request) -> None:
    values, target = request.values, request.kit_file
    seed, manifest = values["seed"], values["manifest"]
    if values["commitment"] is not None or values["salt"] is not None:
        return _verify_commitment(target, values["commitment"], values["salt"], seed)
    from . import verify as verifier

    if seed is not None and manifest is not None:
        raise KitgenError("give --seed or --kit, not both")
    if values.get("keys") is not None and seed is None:
        raise KitgenError("--keys goes with --seed (the deck's size); a kit's manifest (--kit) gives it")
    secret = verifier.load_manifest(manifest) if manifest else \
        verifier.Secret(seed, total=values.get("keys")) if seed is not None else None
    from kitgen import scans

    from .key_volumes import default_jobs

    results = verifier.verify(target, secret, values["dpi"], values.get("jobs") or default_jobs(), TerminalProgress())
    kit = scans.classify(target)[0] == "kit"        # a built kit's folder is checked with its own manifest
    report(results, "key card(s)", "the key of its kit" if secret or kit else
           "well formed (give --seed or --kit to check it belongs to a kit)")


def _verify_commitment(target: str, commitment: str | None, salt: str | None, seed: str | None):
    """A forum game: the key revealed after the game against the commitment posted before it."""
    from kitgen import commitment as commitments, scans

    from . import key_payload, verify as verifier

    if commitment is None or salt is None:
        raise KitgenError("give both --commitment and --salt, as the host posted them")
    if not commitments.DIGEST.fullmatch(commitment.strip().lower()):
        raise KitgenError(f"--commitment {commitment[:20]!r}... is not 64 hexadecimal digits")
    if not commitments.SALT.fullmatch(salt.strip().lower()):
        raise KitgenError(f"--salt {salt[:20]!r}... is not 32 hexadecimal digits")
    kind, payload = scans.classify(target)
    if kind != "payload":
        raise KitgenError("with --commitment, TARGET is the key's payload as the host posted it (KG1:...)")
    key_payload.decode(payload)
    result = verifier.CardResult("payload", payload)
    if not commitments.matches(commitment, payload, salt.strip().lower()):
        result.problems.append("this key and salt are not what the commitment bound the host to: the key was "
                               "changed after the commitment, or the salt or key was copied wrongly")
    if seed is not None:
        result.problems += verifier.check_payload(payload, verifier.Secret(seed))
    report([result], "key card(s)", "the key committed to before the game")
