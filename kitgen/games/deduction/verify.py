"""Checking case slips (docs/design.md §10.5): a payload, a photo or scan, or a kit's
PDF. Without a seed a slip is checked for structure; with the seed (or the kit's
manifest) it must be exactly the slip that seed deals. On a kitgen PDF the names
printed on the slip must be the ones its QR names. With ``--at LOCATION``, each slip
also says what an investigator placed there should have received, so the
"misleading information" rule can be settled at the table."""

import json
from dataclasses import dataclass

from kitgen import scans
from kitgen.errors import KitgenError
from kitgen.games.deduction import answers, case_payload, city as city_mod, dealing, theme as theme_mod
from kitgen.names import identity


@dataclass(frozen=True)
class Names:
    """What a slip's indices mean: the theme's lists and its map."""

    kit: str
    suspects: tuple[str, ...]
    crimes: tuple[str, ...]
    city: city_mod.Map
    seed: str | None = None
    language: str = "en"
    colour: str = "rgb"


@dataclass
class SlipResult(scans.Checked):
    """A case slip checked; its notes name the case and, with --at, the answer."""

    @property
    def label(self) -> str:
        try:
            slip = case_payload.decode(self.payload)
        except KitgenError:
            return "a QR code"
        return f"slip {slip.kit} mini-game {slip.game}, player {slip.holder} of {slip.players}"


def from_theme(theme) -> Names:
    return Names(theme.id.upper(), theme.names("suspects"), theme.names("crimes"), theme.city, theme.seed,
                 theme.language)


def load_manifest(path: str) -> Names:
    """The seed and the theme's names and map from a deduction kit's manifest.json."""
    try:
        data = json.loads(scans.manifest_text(path))
        theme = data["theme"]
        names = tuple(loc["name"] for loc in theme["locations"])
        index = {n: i for i, n in enumerate(names)}
        roads = tuple(sorted(tuple(sorted((index[a], index[b]))) for a, b in theme["roads"]))
        city = city_mod.Map(names, roads, tuple(tuple(loc["at"]) for loc in theme["locations"]))
        return Names(data["kit"].upper(), tuple(theme["suspects"]), tuple(theme["crimes"]), city, data["seed"],
                     data.get("language", "en"), data.get("options", {}).get("colour", "rgb"))
    except FileNotFoundError:
        raise KitgenError("manifest not found; give the manifest.json of a built kit", source=path) from None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise KitgenError("is not the manifest.json of a deduction kit", source=path) from None


def builtin_names(kit: str) -> Names | None:
    """The built-in theme whose id is ``kit`` (upper case), if there is one."""
    path = theme_mod.builtin_dir() / f"{kit.lower()}.yaml"
    return from_theme(theme_mod.load(path)) if path.exists() else None


def location_index(names: Names, location: str) -> int:
    """A location named, or numbered from 1 in the theme's order."""
    wanted = identity(location)
    for i, name in enumerate(names.city.names):
        if identity(name) == wanted:
            return i
    if location.isdigit() and 1 <= int(location) <= len(names.city.names):
        return int(location) - 1
    raise KitgenError(f"--at {location!r} is not a location of {names.kit}; its locations: "
                      f"{', '.join(names.city.names)}")


def check(text: str, seed: str | None, names: Names | None, at: str | None, kit_given: bool) -> SlipResult:
    """One slip's problems, and with ``at`` the answer at that location."""
    result = SlipResult("payload", text)
    slip = case_payload.decode(text)
    if names is not None and kit_given and slip.kit != names.kit:
        result.problems.append(f"it belongs to kit {slip.kit}, not {names.kit}")
    if names is not None and (len(names.suspects), len(names.crimes), len(names.city.names)) != (
            slip.counts.suspects, slip.counts.crimes, slip.counts.locations):
        result.problems.append(f"it is for a theme of {slip.counts.suspects}/{slip.counts.crimes}/"
                               f"{slip.counts.locations}; this one has {len(names.suspects)}/{len(names.crimes)}/"
                               f"{len(names.city.names)}")
        return result
    if names is not None:
        result.notes.append(f"{names.suspects[slip.suspect]}, {names.crimes[slip.crime]}, "
                            f"{names.city.names[slip.location]}")
    if seed is None:
        if at is not None:
            raise KitgenError("--at needs the kit's seed: give --seed or --kit manifest.json")
        return result
    expected = case_payload.check_code(dealing.secret(seed), slip.body)
    if slip.check != expected:
        result.problems.append(f"check code {slip.check} does not match this seed "
                               "(a different kit, a wrong seed, or an edited slip)")
        return result
    game = dealing.deal(seed, slip.counts, slip.players)[slip.game - 1]
    if game.cases[slip.holder - 1] != slip.case:
        result.problems.append(f"it is not the case this seed deals to player {slip.holder}")
        return result
    if at is not None:
        if names is None:
            raise KitgenError(f"--at needs the kit's map: give --kit manifest.json (kit {slip.kit} is not built in)")
        where = location_index(names, at)
        answer = answers.at(names.city, game, slip.case, where)
        discs, cubes = answer.counts
        detail = [f"{what} here" for what in answer.discs] + [f"{what} at {names.city.names[n]}"
                                                              for n, what in answer.cubes]
        result.notes.append(f"an investigator on {names.city.names[where]} gets {discs} disc(s) and {cubes} cube(s)"
                            + (f": {'; '.join(detail)}" if detail else ""))
    return result


def _printed_names_problem(page, code_box, names: Names, slip) -> str | None:
    """On a kitgen PDF: the slip's case panel must print the names its QR holds."""
    x0, y0, x1, y1 = code_box
    size = x1 - x0
    # the case panel reaches left of the QR by about three QR widths and up by about two
    printed = page.get_textpage().get_text_bounded(left=x0 - 3.2 * size, bottom=y0, right=x1, top=y1 + 2.2 * size)
    flat = identity(printed)
    wanted = (names.suspects[slip.suspect], names.crimes[slip.crime], names.city.names[slip.location])
    missing = [n for n in wanted if identity(n) not in flat]
    if missing:
        return f"the slip prints another case than its QR holds (no {', '.join(repr(m) for m in missing)})"
    return None


def _painted_problem(image, dpi: float, page_size, code_box, names: Names, slip, payload: str) -> str | None:
    """On a kitgen PDF: the slip's case panel, compared with the slip kitgen would print for
    this payload at the same place. Names painted over and printed anew differ by far more
    than the rasterizer's rounding does."""
    import io
    from types import SimpleNamespace

    from PIL import ImageChops, ImageFilter

    from kitgen import fonts as fonts_mod
    from kitgen.games.deduction import layout as layout_mod, texts
    from kitgen.games.deduction.render import slips
    from kitgen.games.deduction.theme import Entry
    from kitgen.render.pdf import new_canvas

    layout = layout_mod.load("default", ("cmyk",) if names.colour == "cmyk" else ())
    spec = layout.slip
    width, _, third = slips.geometry(spec)
    x0, y0, _, _ = code_box
    origin = (x0 - (width - spec.margin - spec.qr), y0 - (third + spec.margin))
    from kitgen import messages as messages_mod

    font_names = fonts_mod.register_roles(layout, names.language, messages_mod.characters(
        texts.folder(), names.language, [*names.suspects, *names.crimes, *names.city.names]))
    theme = SimpleNamespace(suspects=tuple(Entry(n) for n in names.suspects),
                            crimes=tuple(Entry(n) for n in names.crimes),
                            locations=tuple(Entry(n) for n in names.city.names))
    cards = slips.slips([(slip.game, slip.case, payload)], theme, layout, font_names, texts.load(names.language).labels,
                        "check", blank_backs=False)
    buffer = io.BytesIO()
    c = new_canvas(buffer, page_size, font_names, cmyk=names.colour == "cmyk")
    c.translate(*origin)
    cards.front(c, 0)
    c.showPage()
    c.save()
    expected = next(scans.pdf_pages_of(buffer.getvalue(), dpi))
    scale = dpi / 72
    left, right = origin[0] + spec.margin, origin[0] + width - spec.margin - spec.qr - 6
    bottom, top = origin[1] + third + spec.margin + 8, origin[1] + 2 * third - spec.margin
    box = (round(left * scale), round((page_size[1] - top) * scale), round(right * scale),
           round((page_size[1] - bottom) * scale))
    blur = ImageFilter.BoxBlur(2)
    seen = image.convert("L").crop(box).filter(blur)
    drawn = expected.convert("L").crop(box).filter(blur)
    histogram = ImageChops.difference(seen, drawn).histogram()
    if sum(histogram[60:]) > 0.003 * seen.width * seen.height:
        return "the case printed on the slip is not the one its QR holds (painted over?)"
    return None


def verify(target: str, seed: str | None = None, manifest: str | None = None, at: str | None = None,
           dpi: float = 200) -> list[SlipResult]:
    names = load_manifest(manifest) if manifest else None
    if names is not None:
        seed = names.seed
    kind, value = scans.classify(target)
    if kind == "payload":
        slip = case_payload.decode(value)
        names = names or builtin_names(slip.kit)
        return [check(value, seed, names, at, manifest is not None)]
    import zxingcpp

    results = []
    document = None
    if kind == "pdf":
        document = scans.open_pdf(value)
    try:
        for where, image in scans.images(kind, value, dpi, found=lambda: bool(results)):
            codes = zxingcpp.read_barcodes(image.convert("RGB"), formats=zxingcpp.BarcodeFormat.QRCode)
            for code in codes:
                if not case_payload.is_case_slip(code.text):
                    continue
                try:
                    slip = case_payload.decode(code.text)
                    slip_names = names or builtin_names(slip.kit)
                    result = check(code.text, seed, slip_names, at, manifest is not None)
                except KitgenError as err:
                    results.append(SlipResult(where, code.text, [err.message]))
                    continue
                result.where = where
                if document is not None and slip_names is not None and result.ok:
                    page = document[int(where.split()[-1]) - 1]
                    scale = dpi / 72
                    pos = code.position
                    xs = [p.x / scale for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)]
                    ys = [page.get_height() - p.y / scale
                          for p in (pos.top_left, pos.top_right, pos.bottom_right, pos.bottom_left)]
                    code_box = (min(xs), min(ys), max(xs), max(ys))
                    problem = _printed_names_problem(page, code_box, slip_names, slip) or _painted_problem(
                        image, dpi, (page.get_width(), page.get_height()), code_box, slip_names, slip, code.text)
                    if problem:
                        result.problems.append(problem)
                results.append(result)
    finally:
        if document is not None:
            document.close()
    if not results:
        raise KitgenError(scans.NO_CODE, source=target)
    return results
