"""Press-ready PDF/X-1a:2003 (ISO 15930-4; docs/design.md §8.11): ``to_pdfx`` turns a CMYK PDF that
reportlab wrote into PDF/X with pikepdf (qpdf) and ``problems`` checks a PDF against what PDF/X-1a
asks of its structure, colours, fonts and transparency, and against the ink limit. ``convert``
does both to every PDF of a kit and refuses the kit in one line when a check fails."""

import io

from kitgen.errors import KitgenError

from . import press

VERSION = "PDF/X-1a:2003"
PDF_VERSION = "1.4"                 # PDF/X-1a:2003 is based on PDF 1.4 (no transparency, no object streams)
ALLOWED_SPACES = {"/DeviceCMYK", "/DeviceGray", "/CMYK", "/G", "/Pattern"}
RGB_OPERATORS = {"rg", "RG"}
CMYK_OPERATORS = {"k", "K"}
SET_COLOUR = {"sc", "scn", "SC", "SCN"}
MAX_SHOWN = 3                       # problems named in the one-line error


def to_pdfx(data: bytes, profile: press.Profile, version: str = VERSION) -> bytes:
    """``data`` (a CMYK PDF, every font embedded) as PDF/X: the version key and ``/Trapped /False``
    in the Info dictionary (its fixed dates and title kept), one GTS_PDFX OutputIntent holding
    ``profile``, a TrimBox and BleedBox on every page (the whole page where the page has none: an
    imposed sheet is trimmed as a sheet), no object streams, and an ID made from the content."""
    import pikepdf

    with pikepdf.open(io.BytesIO(data)) as pdf:
        info = pdf.docinfo
        info["/GTS_PDFXVersion"] = pikepdf.String(version)
        info["/Trapped"] = pikepdf.Name("/False")
        pdf.Root.OutputIntents = pikepdf.Array([pdf.make_indirect(_output_intent(pdf, profile))])
        for page in pdf.pages:
            media = page.obj.MediaBox
            if "/TrimBox" not in page.obj:
                page.obj.TrimBox = pikepdf.Array(list(media))
            if "/BleedBox" not in page.obj:
                page.obj.BleedBox = pikepdf.Array(list(media))
        out = io.BytesIO()
        pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 compress_streams=True, fix_metadata_version=False, force_version=PDF_VERSION)
    return out.getvalue()


def _output_intent(pdf, profile: press.Profile):
    """The OutputIntent dictionary: the condition's identifier (and registry), its description
    and the profile itself (/N 4), so the file says what press it was separated for."""
    import pikepdf

    stream = pdf.make_stream(profile.data)
    stream.N = 4
    intent = pikepdf.Dictionary(Type=pikepdf.Name.OutputIntent, S=pikepdf.Name.GTS_PDFX,
                                OutputConditionIdentifier=pikepdf.String(profile.identifier),
                                OutputCondition=pikepdf.String(profile.description),
                                Info=pikepdf.String(profile.condition), DestOutputProfile=stream)
    if profile.registry:
        intent.RegistryName = pikepdf.String(profile.registry)
    return intent


def record(profile: press.Profile, max_ink: float, version: str = VERSION) -> dict:
    """What a manifest's options say of a --pdfx build: the version, the profile, the ink limit and
    how pictures were converted."""
    return {"version": version, "profile": profile.record(), "max_ink": max_ink, "intent": press.INTENT}


def convert(files: list, profile: press.Profile, max_ink: float, version: str = VERSION) -> list:
    """Every PDF among ``files`` (output.BuiltFile) as PDF/X, checked (``problems``); other files as
    they are. A PDF that fails a check refuses the kit in one line naming it and what failed."""
    from kitgen.output import BuiltFile

    out = []
    for f in files:
        if f.name.endswith(".pdf"):
            data = to_pdfx(f.data, profile, version)
            found = problems(data, max_ink, version)
            if found:
                more = f" (and {len(found) - MAX_SHOWN} more)" if len(found) > MAX_SHOWN else ""
                raise KitgenError(f"{f.name} would not be {version}: {'; '.join(found[:MAX_SHOWN])}{more}")
            f = BuiltFile(f.name, data, f.pages)
        out.append(f)
    return out


def problems(data: bytes, max_ink: float, version: str = VERSION) -> list[str]:
    """What keeps ``data`` from being ``version`` within ``max_ink`` percent of ink, each as a
    short phrase naming where; empty when nothing does. The checks, on the file's structure:
    qpdf's syntax check (a damaged cross-reference table, a stream that does not decode), the PDF
    version, no encryption, the Info keys, the ID, one GTS_PDFX OutputIntent with a CMYK output
    profile, TrimBox and BleedBox nested on every page, only CMYK and grey colour (operators,
    colour spaces, images), every CMYK colour and image pixel within ``max_ink``, every font
    embedded, no transparency (soft masks, constant alpha, blend modes, groups), no transfer
    functions, no LZW, no actions, JavaScript or annotations."""
    import pikepdf

    found: list[str] = []
    with pikepdf.open(io.BytesIO(data)) as pdf:
        if pdf.is_encrypted or "/Encrypt" in pdf.trailer:
            found.append("the file is encrypted")
        if tuple(map(int, pdf.pdf_version.split("."))) > tuple(map(int, PDF_VERSION.split("."))):
            found.append(f"PDF {pdf.pdf_version}, above the {PDF_VERSION} it is based on")
        found += [f"qpdf: {p.split(': ', 2)[-1]}" for p in pdf.check_pdf_syntax()]      # without the stream's repr
        found += _document_problems(pdf, version)
        for number, page in enumerate(pdf.pages, 1):
            found += [f"page {number}: {p}" for p in _page_problems(page)]
            found += [f"page {number}: {p}" for p in _content_problems(page, max_ink)]
            found += [f"page {number}: {p}" for p in _resource_problems(page.obj.get("/Resources"))]
        for obj in pdf.objects:
            found += _object_problems(obj, max_ink)
    return list(dict.fromkeys(found))


def _document_problems(pdf, version: str) -> list[str]:
    """The trailer, Info dictionary, OutputIntents and catalogue."""
    import pikepdf

    found = []
    info = pdf.trailer.get("/Info")
    info = info if isinstance(info, pikepdf.Dictionary) else pikepdf.Dictionary()
    if str(info.get("/GTS_PDFXVersion", "")) != version:
        found.append(f"Info /GTS_PDFXVersion is not ({version})")
    if info.get("/Trapped") not in (pikepdf.Name("/False"), pikepdf.Name("/True")):
        found.append("Info /Trapped is not /False or /True")
    found += [f"Info has no {key}" for key in ("/Title", "/CreationDate", "/ModDate") if key not in info]
    ids = pdf.trailer.get("/ID")
    if not isinstance(ids, pikepdf.Array) or len(ids) != 2:
        found.append("the trailer has no /ID")
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == pikepdf.Name("/GTS_PDFX")]
    if len(intents) != 1:
        found.append(f"{len(intents)} GTS_PDFX OutputIntents, not one")
    for intent in intents:
        found += _intent_problems(intent)
    found += [f"the catalogue has {key}" for key in ("/OpenAction", "/AA") if key in pdf.Root]
    if "/JavaScript" in pdf.Root.get("/Names", {}):
        found.append("the document has JavaScript")
    return found


def _intent_problems(intent) -> list[str]:
    """One GTS_PDFX OutputIntent: its condition named, its profile a CMYK output profile."""
    import pikepdf

    found = []
    if not isinstance(intent.get("/OutputConditionIdentifier"), pikepdf.String):
        found.append("the OutputIntent has no /OutputConditionIdentifier")
    if "/RegistryName" not in intent and "/Info" not in intent:
        found.append("the OutputIntent names an unregistered condition without /Info")
    profile = intent.get("/DestOutputProfile")
    if not isinstance(profile, pikepdf.Stream):
        return found + ["the OutputIntent has no /DestOutputProfile"]
    head = profile.read_bytes()[:40]
    if profile.get("/N") != 4 or head[12:16] != b"prtr" or head[16:20] != b"CMYK":
        found.append("the OutputIntent's profile is not a CMYK output profile (/N 4, class prtr)")
    return found


def _page_problems(page) -> list[str]:
    """TrimBox and BleedBox present and nested (TrimBox within BleedBox within MediaBox); no
    annotations or actions."""
    found = []
    media = _box(page.obj.get("/MediaBox"))
    trim = _box(page.obj.get("/TrimBox", page.obj.get("/ArtBox")))
    bleed = _box(page.obj.get("/BleedBox"))
    if trim is None or bleed is None:
        return ["no TrimBox or no BleedBox"]
    if not _inside(bleed, media) or not _inside(trim, bleed):
        found.append("TrimBox, BleedBox and MediaBox are not nested")
    found += [f"it has {key}" for key in ("/Annots", "/AA") if key in page.obj]
    return found


def _box(value):
    return None if value is None else [float(v) for v in value]


def _inside(inner, outer, slack: float = 1e-3) -> bool:
    return (inner[0] >= outer[0] - slack and inner[1] >= outer[1] - slack and inner[2] <= outer[2] + slack
            and inner[3] <= outer[3] + slack)


def _content_problems(content, max_ink: float) -> list[str]:
    """A page's or a form's content stream: no RGB colour operator or colour space, every CMYK
    colour within ``max_ink``, inline images grey, CMYK or stencil masks."""
    import pikepdf

    found = []
    for item in pikepdf.parse_content_stream(content):
        if isinstance(item, pikepdf.ContentStreamInlineImage):
            found += _inline_image_problems(item.iimage.obj)
            continue
        operands, operator = item.operands, str(item.operator)
        if operator in RGB_OPERATORS:
            found.append(f"RGB colour ({operator})")
        elif operator in ("cs", "CS") and str(operands[0]) in ("/DeviceRGB", "/CalRGB", "/Lab"):
            found.append(f"colour space {operands[0]}")
        elif operator in CMYK_OPERATORS or (operator in SET_COLOUR and len(operands) == 4):
            values = [float(v) for v in operands]
            if press.ink(values) > max_ink:
                found.append(f"CMYK {' '.join(f'{v:g}' for v in values)} is {press.ink(values):g}% ink, over "
                             f"{max_ink:g}%")
        elif operator in SET_COLOUR and len(operands) == 3:
            found.append(f"a three-component colour ({operator})")
    return found


def _inline_image_problems(image) -> list[str]:
    """An inline image (the QR codes are stencil masks, ``/IM true``: allowed, they print in the fill colour)."""
    import pikepdf

    if image.get("/IM", image.get("/ImageMask")) == True:  # noqa: E712 (a pikepdf Boolean)
        return []
    space = image.get("/CS", image.get("/ColorSpace"))
    if isinstance(space, pikepdf.Name) and str(space) in ALLOWED_SPACES:
        return []
    return [f"an inline image in {space}"]


def _object_problems(obj, max_ink: float) -> list[str]:
    """Any object of the file: fonts embedded, images and colour spaces CMYK or grey, no
    transparency, transfer functions or LZW; form XObjects' content checked as pages' is."""
    import pikepdf

    if not isinstance(obj, (pikepdf.Dictionary, pikepdf.Stream)):
        return []
    found = []
    kind, subtype = obj.get("/Type"), obj.get("/Subtype")
    if kind == pikepdf.Name("/Font"):
        found += _font_problems(obj)
    elif kind == pikepdf.Name("/ExtGState"):
        found += _graphics_state_problems(obj)
    group = obj.get("/Group")
    if isinstance(group, pikepdf.Dictionary) and group.get("/S") == pikepdf.Name("/Transparency"):
        found.append("a transparency group")
    if "/ColorSpace" in obj and subtype != pikepdf.Name("/Image"):        # a shading's
        found += _space_problems(obj.ColorSpace)
    if isinstance(obj, pikepdf.Stream):
        filters = obj.get("/Filter")
        if "/LZWDecode" in ([str(f) for f in filters] if isinstance(filters, pikepdf.Array) else [str(filters)]):
            found.append("an LZW-compressed stream")
        if subtype == pikepdf.Name("/Image"):
            found += _image_problems(obj, max_ink)
        elif subtype == pikepdf.Name("/Form") or obj.get("/PatternType") == 1:
            found += [f"a form XObject: {p}" for p in _content_problems(obj, max_ink)]
            found += [f"a form XObject: {p}" for p in _resource_problems(obj.get("/Resources"))]
        elif subtype == pikepdf.Name("/PS"):
            found.append("a PostScript XObject")
    return found


def _resource_problems(resources) -> list[str]:
    """A resource dictionary's colour spaces, shadings, patterns' shadings and graphics states
    (which may be written in it directly, where the walk over the file's objects does not see them)."""
    import pikepdf

    if not isinstance(resources, pikepdf.Dictionary):
        return []
    found = []
    for space in resources.get("/ColorSpace", {}).values():
        found += _space_problems(space)
    for shading in resources.get("/Shading", {}).values():
        found += _space_problems(shading.get("/ColorSpace"))
    for pattern in resources.get("/Pattern", {}).values():
        if "/Shading" in pattern:
            found += _space_problems(pattern.Shading.get("/ColorSpace"))
    for state in resources.get("/ExtGState", {}).values():
        found += _graphics_state_problems(state)
    for font in resources.get("/Font", {}).values():
        found += _font_problems(font)
    return found


def _font_problems(font) -> list[str]:
    """A font is embedded: its descriptor (a Type0 font's descendant's) holds a font file."""
    import pikepdf

    name = str(font.get("/BaseFont", "?"))
    if font.get("/Subtype") == pikepdf.Name("/Type3"):
        return []
    if font.get("/Subtype") == pikepdf.Name("/Type0"):
        font = font.DescendantFonts[0]
    descriptor = font.get("/FontDescriptor")
    if not isinstance(descriptor, pikepdf.Dictionary) or not any(
            key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3")):
        return [f"font {name} is not embedded"]
    return []


def _graphics_state_problems(state) -> list[str]:
    """No constant alpha below 1, soft mask, blend mode other than Normal, or transfer function."""
    import pikepdf

    found = [f"transparency ({key} {float(state[key]):g})" for key in ("/CA", "/ca")
             if key in state and float(state[key]) != 1]
    if state.get("/SMask", pikepdf.Name("/None")) != pikepdf.Name("/None"):
        found.append("a soft mask")
    if state.get("/BM", pikepdf.Name("/Normal")) not in (pikepdf.Name("/Normal"), pikepdf.Name("/Compatible")):
        found.append(f"blend mode {state.BM}")
    if "/TR" in state or state.get("/TR2", pikepdf.Name("/Default")) != pikepdf.Name("/Default"):
        found.append("a transfer function")
    return found


def _space_problems(space) -> list[str]:
    """A colour space a resource dictionary names: CMYK, grey, a pattern, or a separation or
    indexed space over them."""
    import pikepdf

    if isinstance(space, pikepdf.Name):
        return [] if str(space) in ALLOWED_SPACES else [f"colour space {space}"]
    if isinstance(space, pikepdf.Array) and len(space):
        family = str(space[0])
        if family in ("/Separation", "/DeviceN"):
            return _space_problems(space[2])
        if family in ("/Indexed", "/I"):
            return _space_problems(space[1])
        if family == "/Pattern":
            return [] if len(space) == 1 else _space_problems(space[1])
        if family == "/ICCBased" and int(space[1].get("/N", 0)) in (1, 4):
            return [f"an ICC-based colour space ({int(space[1].N)} components): PDF/X-1a wants device colour"]
        return [f"colour space {family}"]
    return []


def _image_problems(image, max_ink: float) -> list[str]:
    """An image: a stencil mask, or grey or CMYK (every pixel within ``max_ink``), with no soft mask
    or alternates."""
    import pikepdf

    found = []
    if "/SMask" in image:
        found.append("an image with a soft mask")
    if "/Alternates" in image or "/OPI" in image:
        found.append("an image with alternates or OPI")
    if image.get("/ImageMask") == True:  # noqa: E712 (a pikepdf Boolean)
        return found
    space = image.get("/ColorSpace")
    space_found = _space_problems(space) if space is not None else ["an image without a colour space"]
    if space_found:
        return found + [f"an image: {p}" for p in space_found]
    if space == pikepdf.Name("/DeviceCMYK"):
        found += _image_ink(image, max_ink)
    return found


def _image_ink(image, max_ink: float) -> list[str]:
    """A CMYK image's darkest pixel within ``max_ink``."""
    import numpy as np
    import pikepdf

    try:
        pixels = np.asarray(pikepdf.PdfImage(image).as_pil_image(), dtype=np.int32)
    except Exception as err:            # pikepdf's decoders raise several kinds
        return [f"a CMYK image that cannot be read to measure its ink ({type(err).__name__})"]
    most = pixels.reshape(-1, 4).sum(axis=1).max(initial=0) * 100 / 255
    if most > max_ink + 1e-6:
        return [f"a CMYK image with pixels of {most:.0f}% ink, over {max_ink:g}%"]
    return []
