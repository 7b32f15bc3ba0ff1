-- Applies a batch of entries in order, atomically, in one call (one call per
-- batch instead of one per entry is what lets a backend keep up with Redis).
-- Keys are built here from the arguments because their number is not known up
-- front; binring runs one standalone Redis per backend, never Redis Cluster.
--
-- ARGV[1] key prefix, ARGV[2] seconds a remove's count is kept for retries,
-- ARGV[3] most bytes a list may hold (MAX_LIST_BYTES), ARGV[4] bytes each
-- element counts besides its value, ARGV[5] seconds a write's record is kept,
-- then 9 values per entry, as arguments or, when ARGV[6] is the last, packed
-- there as one MessagePack array (apply-script.ts): kind ("set", "append" or
-- "remove"), bin tag ("<byte length>:<bin>"), key, encoded stamp (40 bytes,
-- ordered as the stamp), value, ring point of the bin, bin name, 1 if the
-- entry comes from its writer to a ready backend (a remove's count decided now
-- may be reported), and 1 if it is limited (a client write: an append that
-- would take its list past ARGV[3] is refused; copies never are). A claim
-- takes an entry's place as kind "claim" with the write's writer and seq (24
-- hex digits, the stamp's tail) as its key, the other values empty.
-- Returns one value per entry: for a remove, the occurrences it removed
-- (decided when first applied), or -2 - that count when it was not decided by
-- the remove's writer on a ready backend (a repair copy got here first); for
-- an append that a remove of its value with a larger stamp superseded before
-- this replica held it, -1; for a refused append, -3 - the list's bytes;
-- otherwise 1 if it changed state, 0 if not; for a claim, the largest stamp
-- recorded for the write, or 0.
local prefix = ARGV[1]
local ttl = ARGV[2]
local max_list_bytes = tonumber(ARGV[3])
local element_overhead = tonumber(ARGV[4])
local record_ttl = ARGV[5]

-- Tombstones are indexed by when they were stored here, so sweep-tombstones.lua
-- can drop them once they are older than the backend's tombstone TTL. Members
-- name what to drop: "s" .. tag .. key for a deleted string key,
-- "l" .. tag .. <key byte length> .. ":" .. key .. value for a list tombstone.
-- The time is read once, and only by a call that stores a tombstone.
local now_ms
local function now()
  if not now_ms then
    local time = redis.call('TIME')
    now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  end
  return now_ms
end
local tombstones_by_age = prefix .. 'gc'

-- Keys of one bin and its indexes (see redis-engine.ts for the layout). A bin
-- is indexed once per call: a batch mostly holds keys of few bins.
local indexed_bins = {}
local function register(tag, point, bin, all_keys, key)
  if redis.call('SADD', prefix .. all_keys .. tag, key) == 1 and not indexed_bins[bin] then
    redis.call('ZADD', prefix .. 'bins', point, bin)
    indexed_bins[bin] = true
  end
end

-- Changes to the key and list counts, written once at the end of the call.
local keys_delta, lists_delta = 0, 0

-- Whether a's bytes sort after b's (memcmp order, as Redis sorts ZSET
-- members). Not Lua's <: Redis sets the locale's collation, which need not be
-- byte order. Chunks skip the common prefix without a byte loop.
local function bytes_after(a, b)
  local length = math.min(#a, #b)
  for from = 1, length, 4096 do
    local to = math.min(from + 4095, length)
    if string.sub(a, from, to) ~= string.sub(b, from, to) then
      for i = from, to do
        local x, y = string.byte(a, i), string.byte(b, i)
        if x ~= y then return x > y end
      end
    end
  end
  return #a > #b
end

-- The entry with the greatest stamp holds the value; an overwritten key stays
-- one string. Two different entries with one stamp (a caller chose it): the
-- greater value wins whichever arrives first, so every replica keeps the same.
local function apply_set(tag, key, stamp, value, point, bin)
  local entry_key = prefix .. 's:' .. tag .. key
  local current = redis.call('GET', entry_key)
  if current then
    local current_stamp = string.sub(current, 1, 40)
    if current_stamp > stamp then return 0 end
    if current_stamp == stamp and not bytes_after(value, string.sub(current, 41)) then return 0 end
  end
  redis.call('SET', entry_key, stamp .. value)
  if value == '' then
    redis.call('ZADD', tombstones_by_age, now(), 's' .. tag .. key)
    keys_delta = keys_delta - redis.call('SREM', prefix .. 'k:' .. tag, key)
  else
    keys_delta = keys_delta + redis.call('SADD', prefix .. 'k:' .. tag, key)
  end
  if not current then register(tag, point, bin, 'ka:', key) end
  return 1
end

-- Live appends are ZSET members "stamp .. value" scored 0, so ZRANGE is stamp order.
-- Below a newer remove, an append is superseded, unless this replica held it
-- before that remove deleted it (ra:, kept as long as remove counts): the
-- remove counted it here, so a retry of it must not be stamped again.
-- lv: indexes each live append by its value's digest, so a remove finds the
-- appends of its value without reading the list; lb: counts the list's bytes.
local function apply_append(tag, key, stamp, value, point, bin, decides, limited)
  local tombstone = redis.call('HGET', prefix .. 'lt:' .. tag .. key, value)
  if tombstone and tombstone > stamp then
    if redis.call('EXISTS', prefix .. 'ra:' .. stamp) == 1 then
      return 0
    end
    return -1
  end
  local list = prefix .. 'l:' .. tag .. key
  local member = stamp .. value
  if redis.call('ZSCORE', list, member) then return 0 end
  local sizes = prefix .. 'lb:' .. tag .. key
  local bytes = #value + element_overhead
  if limited == '1' then
    local size = tonumber(redis.call('GET', sizes) or '0')
    if size + bytes > max_list_bytes then return -3 - size end
  end
  redis.call('ZADD', list, 0, member)
  redis.call('ZADD', prefix .. 'lv:' .. tag .. key, 0, redis.sha1hex(value) .. stamp)
  redis.call('INCRBY', sizes, bytes)
  lists_delta = lists_delta + redis.call('SADD', prefix .. 'lk:' .. tag, key)
  register(tag, point, bin, 'la:', key)
  return 1
end

-- Deletes every append of the value with a smaller stamp and keeps the remove
-- as the value's tombstone, so an older append arriving later stays removed.
-- The appends are found through lv: (digest .. stamp, in order): the work is
-- the value's occurrences, not the list's length, so a long list never holds
-- Redis for long (other calls would get BUSY).
-- rr:<stamp> holds the count, suffixed "?" unless the remove's writer decided it
-- on a ready backend; without it (a later remove's tombstone, or expired), the
-- count is unknown here: 0, not decided.
local function apply_remove(tag, key, stamp, value, point, bin, decides)
  local tombstones = prefix .. 'lt:' .. tag .. key
  local result_key = prefix .. 'rr:' .. stamp
  local tombstone = redis.call('HGET', tombstones, value)
  if tombstone and tombstone >= stamp then
    local stored = redis.call('GET', result_key)
    if not stored then return -2 end
    if string.sub(stored, -1) == '?' then return -2 - tonumber(string.sub(stored, 1, -2)) end
    return tonumber(stored)
  end
  redis.call('HSET', tombstones, value, stamp)
  redis.call('ZADD', tombstones_by_age, now(), 'l' .. tag .. #key .. ':' .. key .. value)
  local list = prefix .. 'l:' .. tag .. key
  local index = prefix .. 'lv:' .. tag .. key
  local digest = redis.sha1hex(value)
  local removed = 0
  for _, indexed in ipairs(redis.call('ZRANGEBYLEX', index, '[' .. digest, '(' .. digest .. stamp)) do
    local append_stamp = string.sub(indexed, 41)
    -- Not there: the entry indexes another value with the same digest; it stays.
    if redis.call('ZREM', list, append_stamp .. value) == 1 then
      redis.call('ZREM', index, indexed)
      redis.call('SET', prefix .. 'ra:' .. append_stamp, 1, 'EX', ttl)
      removed = removed + 1
    end
  end
  if removed > 0 then
    if redis.call('EXISTS', list) == 0 then
      redis.call('DEL', prefix .. 'lb:' .. tag .. key)
      lists_delta = lists_delta - redis.call('SREM', prefix .. 'lk:' .. tag, key)
    else
      redis.call('DECRBY', prefix .. 'lb:' .. tag .. key, removed * (#value + element_overhead))
    end
  end
  register(tag, point, bin, 'la:', key)
  if decides == '1' then
    redis.call('SET', result_key, removed, 'EX', ttl)
    return removed
  end
  redis.call('SET', result_key, removed .. '?', 'EX', ttl)
  return -2 - removed
end

-- w:<writer and seq> holds the largest stamp applied here for that write, for
-- a claim (a retried write whose stamp its writer never learned): every entry
-- of a write carries its writer and seq in its stamp's last 24 bytes.
-- A write's first entry here (the usual case) costs one call.
local function record(stamp)
  local key = prefix .. 'w:' .. string.sub(stamp, 17)
  if redis.call('SET', key, stamp, 'NX', 'EX', record_ttl) then return end
  local held = redis.call('GET', key)
  if not held or stamp > held then redis.call('SET', key, stamp, 'EX', record_ttl) end
end

local function claim(write)
  return redis.call('GET', prefix .. 'w:' .. write) or 0
end

local appliers = { set = apply_set, append = apply_append, remove = apply_remove }
local values, first = ARGV, 6
if #ARGV == 6 then values, first = cmsgpack.unpack(ARGV[6]), 1 end
local results = {}
for i = first, #values, 9 do
  local kind = values[i]
  if kind == 'claim' then
    results[#results + 1] = claim(values[i + 2])
  else
    local result = appliers[kind](values[i + 1], values[i + 2], values[i + 3], values[i + 4], values[i + 5], values[i + 6], values[i + 7], values[i + 8])
    -- A refused append was not applied: nothing to record.
    if not (kind == 'append' and result <= -3) then record(values[i + 3]) end
    results[#results + 1] = result
  end
end
if keys_delta ~= 0 then redis.call('INCRBY', prefix .. 'n:keys', keys_delta) end
if lists_delta ~= 0 then redis.call('INCRBY', prefix .. 'n:lists', lists_delta) end
return results
