"""Faces to pixels: each face drawn into a PDF page by the PDF backend, then rasterised by pdfium.

Going through the PDF keeps every output in agreement: a PNG shows exactly what the printed
sheet shows, fonts, clipping and SVG art included, because it *is* that drawing. A job names a
box of the face (in face millimetres: the trim, the trim and bleed, or a vendor's canvas centred
on the trim) and the exact pixel size it becomes.

Rasterising and PNG encoding take most of the time, so big batches are split over every core;
each worker opens the same in-memory PDF and writes its own files (atomically). The card images
are encoded here (`png_bytes`), straight from pdfium's bitmap, rather than by Pillow: see there.
"""

from __future__ import annotations

import io
import struct
import zlib
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, replace
from multiprocessing import get_context
from pathlib import Path

from PIL import Image as PILImage

from ..atomic import interrupts_held, replacing
from ..face import Face, Group, translation
from ..workers import fork_context, ignore_interrupts, worker_count
from .pdf import FaceForms, place
from .pdfcanvas import Canvas
from .pdfpages import PageWriter

Box = tuple[float, float, float, float]  # x0, y0, x1, y1 in face mm

#: below this many pages starting worker processes costs more than it saves
PARALLEL_FROM = 12


@dataclass(frozen=True)
class RasterJob:
    face: Face
    box: Box  # the part of the face that becomes the picture
    size: tuple[int, int]  # pixels, exactly
    path: Path | None = None  # where to write it as PNG (None: hand the image back)
    dpi: float = 300.0  # recorded in the PNG, so print shops read the intended size


def trim_box(face: Face) -> Box:
    return (0.0, 0.0, face.width, face.height)


def at_trim(face: Face) -> Face:
    """A face as it looks cut out: a shaped piece (a round token) clipped to its outline, paper
    round it, not to its trim's box, which would show its bleed as flat sides."""
    return replace(face, items=(Group(face.items, clip_path=face.outline),)) if face.outline else face


def bleed_box(face: Face) -> Box:
    b = face.bleed
    return (-b, -b, face.width + b, face.height + b)


def pixels(box: Box, dpi: float) -> tuple[int, int]:
    """The pixel size of a box at `dpi`, rounded to whole pixels."""
    return (round((box[2] - box[0]) / 25.4 * dpi), round((box[3] - box[1]) / 25.4 * dpi))


def faces_pdf(jobs: Sequence[RasterJob]) -> bytes:
    """A PDF with one page per job: the job's box of its face, at the job's pixel aspect.

    The page is exactly as wide as the box; its height follows the pixel size, so that one
    rendering scale serves both axes (a vendor canvas may differ from the box by a fraction of a
    pixel)."""
    buf = io.BytesIO()
    writer = PageWriter(buf)
    forms = FaceForms(dpi=max(job.dpi for job in jobs))  # vector art's filters drawn at the pictures' resolution
    for job in jobs:
        x0, y0, x1, _ = job.box
        w = x1 - x0
        h = w * job.size[1] / job.size[0]
        canvas = Canvas(forms.fonts)
        place(canvas, forms.form(at_trim(job.face) if job.box == trim_box(job.face) else job.face),
              translation(-x0, -y0), h, (0.0, 0.0, w, h))
        writer.page(w, h, canvas)
    writer.close({})
    return buf.getvalue()


def render(jobs: Sequence[RasterJob], workers: int | None = None,
           progress: Callable[[int], None] | None = None) -> list[PILImage.Image | None]:
    """Draw every job; jobs with a path are written as PNG (and give None), the others come
    back as RGB images. Uses every core for large batches."""
    if not jobs:
        return []
    import pypdfium2  # noqa: F401  here, before the workers fork: each would import it again, slowly
    pdf = faces_pdf(jobs)
    specs = [(job.size, str(job.path) if job.path else None, job.dpi) for job in jobs]
    workers = min(workers or worker_count(), max(1, len(jobs) // (PARALLEL_FROM // 2)))
    if workers <= 1 or len(jobs) < PARALLEL_FROM:
        return _render_range(pdf, specs, 0, len(jobs), progress)
    results: list[PILImage.Image | None] = [None] * len(jobs)
    step = -(-len(jobs) // (workers * 4))  # small chunks: the bar moves and cores stay busy
    with ProcessPoolExecutor(workers, mp_context=fork_context() or get_context("spawn"),
                             initializer=ignore_interrupts) as pool:
        try:
            with interrupts_held():  # the workers are forked here: Ctrl-C is the parent's to answer
                futures = {pool.submit(_render_range, pdf, specs, start, min(start + step, len(jobs))): start
                           for start in range(0, len(jobs), step)}
            for future in as_completed(futures):
                done = future.result()
                start = futures[future]
                results[start:start + len(done)] = done
                if progress:
                    progress(len(done))
        except BaseException:  # Ctrl-C or a failure: the chunks being drawn are finished, the rest never begun,
            pool.shutdown(cancel_futures=True)  # so no worker writes into a folder the caller then removes
            raise
    return results


def _render_range(pdf: bytes, specs: Sequence[tuple[tuple[int, int], str | None, float]], start: int, end: int,
                  progress: Callable[[int], None] | None = None) -> list[PILImage.Image | None]:
    """Rasterise pages start..end-1 (runs in a worker process: pdfium documents do not cross
    processes, so each worker opens the PDF itself)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    out: list[PILImage.Image | None] = []
    try:
        for index in range(start, end):
            (w, h), path, dpi = specs[index]
            page = doc[index]
            # a hair under the exact scale: pdfium rounds the bitmap size up
            scale = w / page.get_width() * (1 - 1e-7)
            bitmap = page.render(scale=scale, rev_byteorder=True)  # RGB, the byte order PNG stores
            page.close()
            rgb, stride = bitmap.buffer, bitmap.stride
            if (bitmap.width, bitmap.height) != (w, h):  # never by more than a pixel: pad or cut, never resample
                fixed = PILImage.new("RGB", (w, h), "white")
                fixed.paste(bitmap.to_pil(), (0, 0))
                rgb, stride = fixed.tobytes(), 3 * w
            if path is None:
                out.append(PILImage.frombuffer("RGB", (w, h), rgb, "raw", "RGB", stride, 1))  # a copy
            else:
                with replacing(Path(path)) as tmp:
                    tmp.write_bytes(png_bytes(rgb, (w, h), stride, dpi))
                out.append(None)
            if progress:
                progress(1)
    finally:
        doc.close()
    return out


#: zlib level of the PNGs: on card faces, level 3 of unfiltered rows comes within 3 % of the size
#: of Pillow's filtered level 6 (TTS sheets, of smaller cards, 5 %), in under half the time
PNG_LEVEL = 3


def png_bytes(rgb: bytes | memoryview, size: tuple[int, int], stride: int, dpi: float) -> bytes:
    """8-bit RGB pixels (rows `stride` bytes apart, top first) as a PNG, its resolution recorded.

    Every row is stored unfiltered (filter type 0). Pillow instead tries all five PNG filters on
    every row and keeps the one whose bytes sum least; on card faces, large flat fills with
    antialiased edges, that choice costs most of the encoding time and compresses no better than
    no filter at all. The pixels are the same either way; only the compressed bytes differ."""
    w, h = size
    rows = memoryview(rgb).cast("B")
    raw = b"\0" + b"\0".join([rows[y * stride:y * stride + 3 * w] for y in range(h)])  # a filter byte per row
    per_metre = int(dpi / 0.0254 + 0.5)  # as Pillow rounds it, so a reader sees the same dpi
    return b"".join([b"\x89PNG\r\n\x1a\n",
                     _chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)),  # 8-bit RGB, not interlaced
                     _chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)),
                     _chunk(b"IDAT", zlib.compress(raw, PNG_LEVEL)),
                     _chunk(b"IEND", b"")])


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def save_png(image: PILImage.Image, path: Path, dpi: float = 300.0) -> Path:
    """Write a PNG atomically (temporary file, then rename), with its resolution recorded: an RGB
    image (a TTS sheet) as the card images are, others (the preview's palette) by Pillow. Neither
    writes dates, so the same pixels give the same bytes. Returns `path`."""
    with replacing(path) as tmp:
        if image.mode == "RGB":
            tmp.write_bytes(png_bytes(image.tobytes(), image.size, 3 * image.width, dpi))
        else:
            image.save(tmp, format="PNG", dpi=(dpi, dpi))
    return path
