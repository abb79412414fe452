-- weft results database, migration 1 -> 2 (issue 16, the campaign server): a device is also
-- described by its architecture (WebGPU's adapter info: `ampere`, `gen-12lp`...), the browser
-- it ran in and the operating system (empty for native runs), and these join its identity;
-- submissions to a campaign server are kept, keyed by the client's idempotency key, and
-- runs point at the submission that brought them.
-- SQLite cannot change a UNIQUE constraint in place: the devices table is rebuilt (the
-- migration runs with foreign keys off, ids kept, then checked with foreign_key_check).

CREATE TABLE devices_v2 (
    id INTEGER PRIMARY KEY,
    backend TEXT NOT NULL,
    name TEXT NOT NULL,
    vendor TEXT NOT NULL,
    driver TEXT NOT NULL,
    api TEXT NOT NULL,
    architecture TEXT NOT NULL,
    browser TEXT NOT NULL,
    os TEXT NOT NULL,
    UNIQUE (backend, name, vendor, driver, api, architecture, browser, os)
);

INSERT INTO devices_v2 (id, backend, name, vendor, driver, api, architecture, browser, os)
    SELECT id, backend, name, vendor, driver, api, '', '', '' FROM devices;

DROP TABLE devices;

ALTER TABLE devices_v2 RENAME TO devices;

CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    idempotency_key TEXT NOT NULL,
    client TEXT NOT NULL,
    received_at TEXT NOT NULL,
    digest TEXT NOT NULL,
    contact TEXT,
    UNIQUE (idempotency_key)
);

ALTER TABLE runs ADD COLUMN submission_id BIGINT REFERENCES submissions (id);

CREATE INDEX runs_submission ON runs (submission_id);
