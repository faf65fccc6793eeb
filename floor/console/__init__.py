"""The supervisors' web console: pit view, round review, reports (``dealer-assist floor serve``).

It reads the central store (``floor/SCHEMA.md``) and keeps its own tables (``floor/migrations/0002_console.sql``):
accounts, sessions and the record of every action taken in it. It imports journal and engine, never the kiosk.
"""
