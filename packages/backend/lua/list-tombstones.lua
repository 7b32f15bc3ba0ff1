-- The tombstones (lt:) of some lists for a Scan (redis-scan.ts), in pages
-- bounded in bytes and count for all of them together. A list keeps one
-- tombstone per distinct value removed within the tombstone TTL, whether or
-- not it was ever appended, so its hash may hold far more than the list may:
-- a gigabyte of removed values of 1 MiB, or millions of small ones from a
-- list used as a queue. Read whole (one HGETALL), such a hash came back in one
-- reply however large, holding Redis and the backend for all of it at once,
-- as the bins index did (redis-bins.ts: 4.5 s at two million bins, near the
-- 5 s command timeout past which a copy fails on every try).
--
-- ARGV[1] key prefix, ARGV[2] about the most bytes of values to return,
-- ARGV[3] the most tombstones, then for each list its tag and key
-- ("<bin tag><key>") and the HSCAN cursor to go on from ('0' to start).
-- Returns one page per list it reached, in order: { next cursor ('0' once
-- done), value, stamp, value, stamp, ... }. The lists after the last page were
-- not reached: the budget was spent. The first is always reached, so each call
-- moves on. HSCAN goes a bucket at a time (COUNT 1), so the budget is passed
-- by at most one bucket's tombstones.
local prefix, budget, most = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local bytes, count = 0, 0
local result = {}
for i = 4, #ARGV, 2 do
  if bytes >= budget or count >= most then break end
  local key, cursor = prefix .. 'lt:' .. ARGV[i], ARGV[i + 1]
  local page = { cursor }
  repeat
    local scanned = redis.call('HSCAN', key, cursor, 'COUNT', 1)
    cursor = scanned[1]
    local found = scanned[2]
    for k = 1, #found, 2 do
      page[#page + 1] = found[k]
      page[#page + 1] = found[k + 1]
      bytes = bytes + #found[k]
      count = count + 1
    end
  until cursor == '0' or bytes >= budget or count >= most
  page[1] = cursor
  result[#result + 1] = page
end
return result
