"""Paper for the venue, as TOM prints it: the pairings for the wall (by table, by name),
the standings, and match slips with a QR code per match. Each builder takes plain data
and returns PDF bytes; `matches.views.paper` gathers the rows and serves them.

- `base.py`: page sizes (A4, Letter), the font, text helpers on top of fpdf2.
- `lists.py`: the wall lists and standings (large type, a page break per division,
  "continued" headers).
- `slips.py`: the match slips, several to a page with cut marks.
"""
