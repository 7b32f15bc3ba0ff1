-- Deletes part of one bin: up to a budget of its keys, string entries first,
-- then lists with their value indexes, byte counts and tombstones, taking them
-- off the store's counts; once nothing is left, the bin's indexes and its
-- place in the bin index. Called again until it reports the bin gone, so one
-- call holds Redis for a few milliseconds however large the bin: one script
-- for a whole bin of a million keys held Redis past every client's timeout.
-- A key leaves its all-keys index in the call that deletes its entries, so an
-- entry applied concurrently is either taken by a later call (and goes) or
-- applied after the last one (and is indexed anew): never left behind with
-- no index to find it by.
--
-- ARGV[1] key prefix, ARGV[2] the bin's name, ARGV[3] its tag ("<byte length>:<bin>"),
-- ARGV[4] the most keys this call deletes (a list counts as its four keys).
-- Returns { Redis keys deleted, 1 once the bin is gone, else 0 }.
local prefix, bin, tag, budget = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
local deleted = 0

local live_keys = 0
local strings = redis.call('SPOP', prefix .. 'ka:' .. tag, budget)
for _, key in ipairs(strings) do
  deleted = deleted + redis.call('DEL', prefix .. 's:' .. tag .. key)
  live_keys = live_keys + redis.call('SREM', prefix .. 'k:' .. tag, key)
end
if live_keys > 0 then redis.call('DECRBY', prefix .. 'n:keys', live_keys) end

local lists_budget = math.floor((budget - #strings) / 4)
if lists_budget > 0 then
  local live_lists = 0
  -- UNLINK: a long list's structures are freed off Redis's main thread.
  for _, key in ipairs(redis.call('SPOP', prefix .. 'la:' .. tag, lists_budget)) do
    deleted = deleted
      + redis.call(
        'UNLINK',
        prefix .. 'l:' .. tag .. key,
        prefix .. 'lt:' .. tag .. key,
        prefix .. 'lv:' .. tag .. key,
        prefix .. 'lb:' .. tag .. key
      )
    live_lists = live_lists + redis.call('SREM', prefix .. 'lk:' .. tag, key)
  end
  if live_lists > 0 then redis.call('DECRBY', prefix .. 'n:lists', live_lists) end
end

if redis.call('SCARD', prefix .. 'ka:' .. tag) > 0 or redis.call('SCARD', prefix .. 'la:' .. tag) > 0 then
  return { deleted, 0 }
end
-- Live keys and lists missing from the all-keys indexes, if any, leave the counts with their indexes.
redis.call('DECRBY', prefix .. 'n:keys', redis.call('SCARD', prefix .. 'k:' .. tag))
redis.call('DECRBY', prefix .. 'n:lists', redis.call('SCARD', prefix .. 'lk:' .. tag))
deleted = deleted
  + redis.call('DEL', prefix .. 'k:' .. tag, prefix .. 'ka:' .. tag, prefix .. 'lk:' .. tag, prefix .. 'la:' .. tag)
redis.call('ZREM', prefix .. 'bins', bin)
return { deleted, 1 }
