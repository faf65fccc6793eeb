"""The floor: every kiosk's journal shipped to one central PostgreSQL, and what supervisors read from it.

- ``floor.migrate``: the schema, created and migrated from the versioned files in ``floor/migrations``.
- ``floor.store``: enrolling tables and kiosks (a login role each, able only to ship its own events).
- ``floor.shipper``: the kiosk side: sends every journal event in order, exactly once, catching up after outages;
  ``floor.anchors.FloorAnchors`` sends the chain's head at each round's end.
- ``floor.kiosk_link``: what the kiosk process uses (config ``journal.floor``): the shipper thread, and the floor as
  an anchor sink beside the anchor file.
- ``floor.pg``: a throwaway PostgreSQL server (initdb in a folder) for the tests, the bench and the demo.

The floor imports journal and engine only; the kiosk may import the shipper and the anchor sink (see
``../SCHEMA.md`` for the tables).
"""
