-- Rated auto-match: an open rated game may say how far from its opener's rating a joiner's may be
-- (± points; NULL: anyone). Expand only: a new nullable column.
ALTER TABLE games ADD COLUMN rating_range integer NULL CHECK (rating_range IS NULL OR rating_range BETWEEN 25 AND 1000);
