#!/usr/bin/env python3
"""Writes the workbook fixtures of readers/xlsx_corpus_test.go.

Run it from this folder with a Python that has openpyxl (3.0 or later), and
with LibreOffice's soffice on PATH for the files LibreOffice saves:

    python3 gen_xlsx.py

The files are committed, so the tests do not need this script, openpyxl or
LibreOffice. Each is a few kilobytes. What each holds, and the values the
tests expect, are described beside the code that writes it.

  formulas.xlsx      formulas without cached values, as openpyxl and pandas
                     write them: =2*5, =B3*3, a shared formula (its
                     dependents carry only si), a text, a boolean and a
                     date result, an unsupported function, =1/0, a circular
                     reference, a reference to another workbook, INDIRECT
  formulas-lo.xlsx   formulas.xlsx's first rows opened and saved by
                     LibreOffice: cached values, shared formulas
  dates.xlsx         dates, times and timestamps in built-in and custom
                     formats, an elapsed time, plain numbers, text dates
  dates1904.xlsx     the same dates in the 1904 date system
  header.xlsx        a title row and a row of group labels (merged cells)
                     above the header
  macro.xlsm         a macro-enabled workbook (saved by LibreOffice)
  releases.ods       an OpenDocument spreadsheet (LibreOffice)
  releases.xls       an Excel 97-2003 workbook (LibreOffice)
  releases.numbers   a stand-in for an Apple Numbers document: a zip of
                     Index/Document.iwa and Metadata/Properties.plist
  kinds.xlsx         columns of one kind each (text, numbers, a formula
                     without a cached value, booleans, dates, timestamps,
                     times) and columns of mixed kinds, as openpyxl writes
                     them: the kinds the reader gives with ColumnKinds
  kinds-lo.xlsx      kinds.xlsx opened and saved by LibreOffice

"python3 gen_xlsx.py kinds" writes only the last two.
"""

import datetime
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

import openpyxl


def fixed_properties(wb):
    """Fixed document dates, so that the files do not change at each run."""
    when = datetime.datetime(2024, 1, 2, 3, 4, 5)
    wb.properties.created = when
    wb.properties.modified = when
    wb.properties.creator = "riskbatch tests"


def formulas():
    wb = openpyxl.Workbook()
    fixed_properties(wb)
    ws = wb.active
    ws.title = "Releases"
    ws.append(["id", "epsilon", "compositions", "delta", "note"])
    # Row 2: =2*5 → 10 (the row the issue reports read as empty).
    ws.append(["const", 0.5, "=2*5", 1e-6, None])
    # Row 3: a reference to a cell of its own row: =B3*3 → 6.
    ws.append(["ref", 2, "=B3*3", 1e-6, None])
    # Rows 4-6: C4 holds a shared formula =B4*2 over C4:C6 (written below
    # as a shared formula: C5 and C6 carry only si="0"): 2, 4, 6.
    ws.append(["shared1", 1, "=B4*2", None, None])
    ws.append(["shared2", 2, "=B5*2", None, None])
    ws.append(["shared3", 3, "=B6*2", None, None])
    # Row 7: text, boolean and date results; 1/3 to 17 digits.
    ws.append(["types", "=1/3", "=2+3", None, '="a"&"b"'])
    ws["D7"] = "=1<2"
    # Row 8: a date computed by a formula, in a date format: 2024-01-02.
    ws.append(["date", 1, 1, None, "=DATE(2024,1,2)"])
    ws["E8"].number_format = "yyyy-mm-dd"
    # Rows 9-13: formulas that cannot be computed.
    ws.append(["unsupported", 1, "=WEBSERVICE(\"http://example.com\")", None, None])
    ws.append(["div0", "=1/0", 1, None, None])
    ws.append(["circular", 1, "=D11+1", "=C11+1", None])
    ws.append(["external", 1, "=[1]Sheet1!A1", None, None])
    ws.append(["indirect", 1, '=INDIRECT("B2")', None, None])
    # Row 14: depends on a formula that cannot be computed: row 9's.
    ws.append(["dependent", 1, "=C9+1", None, None])
    path = "formulas.xlsx"
    wb.save(path)
    make_shared(path, "xl/worksheets/sheet1.xml", {
        "<c r=\"C4\"><f>B4*2</f><v></v></c>": "<c r=\"C4\"><f t=\"shared\" ref=\"C4:C6\" si=\"0\">B4*2</f></c>",
        "<c r=\"C5\"><f>B5*2</f><v></v></c>": "<c r=\"C5\"><f t=\"shared\" si=\"0\"/></c>",
        "<c r=\"C6\"><f>B6*2</f><v></v></c>": "<c r=\"C6\"><f t=\"shared\" si=\"0\"/></c>",
    })


def make_shared(path, part, replacements):
    """Rewrites cells of a sheet part (openpyxl never writes shared
    formulas)."""
    tmp = path + ".tmp"
    with zipfile.ZipFile(path) as zin, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == part:
                text = data.decode("utf-8")
                for old, new in replacements.items():
                    if old not in text:
                        raise SystemExit("gen_xlsx.py: %s not found in %s" % (old, part))
                    text = text.replace(old, new)
                data = text.encode("utf-8")
            zout.writestr(item, data)
    os.replace(tmp, path)


def dates(path, epoch1904):
    wb = openpyxl.Workbook()
    fixed_properties(wb)
    if epoch1904:
        wb.epoch = openpyxl.utils.datetime.CALENDAR_MAC_1904
    ws = wb.active
    ws.title = "Dates"
    ws.append(["id", "epsilon", "released", "at", "time", "custom", "elapsed", "number", "text"])
    rows = [
        # id, released (date), at (timestamp), time, custom, elapsed, number, text
        ["d1", 1, datetime.date(2024, 1, 2), datetime.datetime(2024, 1, 2, 10, 30, 0),
         datetime.time(10, 30), datetime.datetime(2024, 3, 4), datetime.timedelta(hours=30), 45293, "2024-01-02"],
        ["d2", 1, datetime.date(1999, 12, 31), datetime.datetime(2024, 1, 2, 10, 30, 1, 250000),
         datetime.time(23, 59, 59), datetime.datetime(2024, 3, 4, 5, 6, 7), datetime.timedelta(minutes=90), 0.5, "x"],
        # A date format on a serial with a time of day keeps the time.
        ["d3", 1, datetime.datetime(2024, 1, 2, 12, 0), None, None, None, None, None, None],
    ]
    for r in rows:
        ws.append(r)
    for row in range(2, 5):
        ws.cell(row, 3).number_format = "yyyy-mm-dd"
        ws.cell(row, 4).number_format = "yyyy-mm-dd hh:mm:ss.000"
        ws.cell(row, 5).number_format = "h:mm AM/PM"
        ws.cell(row, 7).number_format = "[h]:mm"
        ws.cell(row, 8).number_format = "0.00"
    ws.cell(2, 6).number_format = 'd "de" mmmm yyyy'  # quoted text in a date format
    ws.cell(3, 6).number_format = "[$-409]m/d/yy h:mm AM/PM;@"
    # Built-in format 14 (m/d/yyyy) on a plain number.
    ws.cell(4, 8).value = 45293
    ws.cell(4, 8).number_format = "mm-dd-yy"
    wb.save(path)


def header():
    wb = openpyxl.Workbook()
    fixed_properties(wb)
    ws = wb.active
    ws.title = "Q3"
    ws.append(["Q3 releases of the census tables"])
    ws.merge_cells("A1:E1")
    ws.append([None, "Privacy", None, "Prior", None])
    ws.merge_cells("B2:C2")
    ws.merge_cells("D2:E2")
    ws.append(["id", "epsilon", "delta", "baseline", "candidates"])
    ws.append(["r1", 1, 1e-6, 0.01, None])
    ws.append(["r2", 2, None, None, 100])
    wb.save("header.xlsx")


def soffice(src, fmt, out):
    exe = shutil.which("soffice") or shutil.which("libreoffice")
    if exe is None:
        raise SystemExit("gen_xlsx.py: LibreOffice (soffice) is needed for %s" % out)
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([exe, "--headless", "--norestore", "-env:UserInstallation=file://" + tmp + "/profile",
                        "--convert-to", fmt, "--outdir", tmp, src], check=True, capture_output=True, timeout=300)
        produced = os.path.join(tmp, os.path.splitext(os.path.basename(src))[0] + "." + fmt.split(":")[0])
        shutil.move(produced, out)


def simple():
    wb = openpyxl.Workbook()
    fixed_properties(wb)
    ws = wb.active
    ws.title = "Releases"
    ws.append(["id", "epsilon", "compositions"])
    ws.append(["a", 1, "=2*5"])
    ws.append(["b", 0.5, 3])
    wb.save("simple.tmp.xlsx")


def formulas_lo():
    # Rows 1-8 of formulas.xlsx (those LibreOffice computes), saved by
    # LibreOffice: it caches every value and writes C4:C6 as a shared
    # formula.
    wb = openpyxl.load_workbook("formulas.xlsx")
    ws = wb.active
    ws.delete_rows(9, 20)
    ws["C4"], ws["C5"], ws["C6"] = "=B4*2", "=B5*2", "=B6*2"
    wb.save("formulas-lo.tmp.xlsx")
    soffice("formulas-lo.tmp.xlsx", "xlsx", "formulas-lo.xlsx")
    os.remove("formulas-lo.tmp.xlsx")


def numbers():
    with zipfile.ZipFile("releases.numbers", "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(zipfile.ZipInfo("Index/Document.iwa", (2024, 1, 2, 3, 4, 6)), b"\x00\x00\x00stand-in")
        z.writestr(zipfile.ZipInfo("Metadata/Properties.plist", (2024, 1, 2, 3, 4, 6)), b"bplist00")


def kinds():
    wb = openpyxl.Workbook()
    fixed_properties(wb)
    ws = wb.active
    ws.title = "Releases"
    ws.append(["id", "mechanism", "epsilon", "compositions", "baseline", "reviewed", "released",
               "checked_at", "at_time", "mixed", "spaced", "doubled", "note"])
    d, t = datetime.date, datetime.time
    ts = datetime.datetime
    rows = [
        ["a", "pure", 0.5, 1, 0.1, True, d(2024, 1, 2), ts(2024, 1, 2, 3, 4, 5), t(10, 30), 1, 1],
        ["b", "pure", 1, 2, 0.1, False, d(2024, 2, 29), ts(2024, 2, 29, 23, 59, 59, 500000), t(0, 0, 1), "two", " "],
        ["c", "pure", 2, 3, 0.1, None, d(1999, 12, 31), None, t(23, 59, 59), 3, 2],
        ["d", "pure", 0.25, 4, 0.1, True, None, ts(1970, 1, 1), None, None, None],
    ]
    for i, r in enumerate(rows, start=2):
        ws.append(r + ["=C%d*2" % i, None])
    for i in range(2, 6):
        ws["G%d" % i].number_format = "yyyy-mm-dd"
        ws["H%d" % i].number_format = "yyyy-mm-dd hh:mm:ss.000"
        ws["I%d" % i].number_format = "hh:mm:ss"
    wb.save("kinds.xlsx")
    # LibreOffice computes the formulas and saves their values.
    shutil.copy("kinds.xlsx", "kinds-lo.tmp.xlsx")
    soffice("kinds-lo.tmp.xlsx", "xlsx", "kinds-lo.xlsx")
    os.remove("kinds-lo.tmp.xlsx")


def main():
    if sys.argv[1:] == ["kinds"]:
        kinds()
        return
    formulas()
    formulas_lo()
    dates("dates.xlsx", False)
    dates("dates1904.xlsx", True)
    header()
    simple()
    soffice("simple.tmp.xlsx", "xlsm:Calc MS Excel 2007 VBA XML", "macro.xlsm")
    soffice("simple.tmp.xlsx", "ods", "releases.ods")
    soffice("simple.tmp.xlsx", "xls", "releases.xls")
    os.remove("simple.tmp.xlsx")
    numbers()
    kinds()


if __name__ == "__main__":
    main()
