-- Drops tombstones stored here longer than the tombstone TTL ago: a deleted
-- string key's entry, a list value's latest remove. Without this a store that
-- deletes ever-new keys or removes ever-new list values grows without bound
-- (HAZARDS.md 10). Dropping one is safe once no entry older than it can still
-- arrive from a copy that missed it: keepers wipe a backend declared dead
-- before they fill it again, so stale copies are never merged (HAZARDS.md 3).
--
-- ARGV[1] key prefix, ARGV[2] tombstone TTL in ms, ARGV[3] most tombstones to
-- look at in this call. The index "gc" (apply-entries.lua) scores each
-- tombstone by when it was stored; a tombstone replaced since by a value or a
-- newer one is not dropped by its old index entry.
-- Returns { index entries looked at, tombstones dropped, then the string keys
-- dropped (unprefixed) }: the engine's read cache forgets exactly those.
local prefix = ARGV[1]
local time = redis.call('TIME')
local now_ms = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local cutoff = now_ms - tonumber(ARGV[2])
local index = prefix .. 'gc'

-- "<byte length>:<bin>" at position `from` of `s`: returns the tag, the bin, and where the rest starts.
local function read_tag(s, from)
  local colon = string.find(s, ':', from, true)
  local length = tonumber(string.sub(s, from, colon - 1))
  local bin = string.sub(s, colon + 1, colon + length)
  return string.sub(s, from, colon + length), bin, colon + length + 1
end

-- A bin with no string key and no list key left leaves the bin index too.
local function forget_bin_if_empty(tag, bin)
  if redis.call('SCARD', prefix .. 'ka:' .. tag) == 0 and redis.call('SCARD', prefix .. 'la:' .. tag) == 0 then
    redis.call('ZREM', prefix .. 'bins', bin)
  end
end

local function drop_string_tombstone(member)
  local tag, bin, rest = read_tag(member, 2)
  local key = string.sub(member, rest)
  local entry_key = prefix .. 's:' .. tag .. key
  local current = redis.call('GET', entry_key)
  -- Only an entry that is still a deletion (the stamp alone) goes.
  if not current or string.len(current) ~= 40 then return 0 end
  redis.call('DEL', entry_key)
  redis.call('SREM', prefix .. 'ka:' .. tag, key)
  forget_bin_if_empty(tag, bin)
  return 's:' .. tag .. key
end

local function drop_list_tombstone(member)
  local tag, bin, rest = read_tag(member, 2)
  local colon = string.find(member, ':', rest, true)
  local key_length = tonumber(string.sub(member, rest, colon - 1))
  local key = string.sub(member, colon + 1, colon + key_length)
  local value = string.sub(member, colon + key_length + 1)
  local tombstones = prefix .. 'lt:' .. tag .. key
  if redis.call('HDEL', tombstones, value) == 0 then return 0 end
  if redis.call('EXISTS', prefix .. 'l:' .. tag .. key) == 0 and redis.call('EXISTS', tombstones) == 0 then
    redis.call('SREM', prefix .. 'la:' .. tag, key)
    forget_bin_if_empty(tag, bin)
  end
  return 1
end

local members = redis.call('ZRANGEBYSCORE', index, '-inf', cutoff, 'LIMIT', 0, tonumber(ARGV[3]))
local result = { #members, 0 }
for _, member in ipairs(members) do
  if string.sub(member, 1, 1) == 's' then
    local string_key = drop_string_tombstone(member)
    if string_key ~= 0 then
      result[2] = result[2] + 1
      result[#result + 1] = string_key
    end
  else
    result[2] = result[2] + drop_list_tombstone(member)
  end
  redis.call('ZREM', index, member)
end
return result
