-- Failed logins no longer lock an account (anyone could lock anyone out):
-- the server slows down repeated failures per client address instead, in
-- memory. The lock's columns go.
ALTER TABLE users DROP COLUMN failed_logins;
ALTER TABLE users DROP COLUMN locked_until;
