-- Raises the persisted clock reservation, never lowering it. Clocks are kept
-- as 16 hex digits so that string order is numeric order (Lua numbers cannot
-- hold 64-bit values exactly).
-- KEYS[1] clock
-- ARGV[1] proposed reservation, 16 hex digits
-- Returns the reservation now stored.
local current = redis.call('GET', KEYS[1])
if current and current >= ARGV[1] then
  return current
end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
