-- wrk script for bench/payouts: card-to-card payouts of 100 between two distinct random cards.
-- Arguments after `--`: the file of card numbers (one per line) and the API key; or `health` alone for GET /api/health.
-- WRK_INSTANCES="host:port,host:port" spreads the threads over several app instances, round robin.
local cards, headers, health

local instances, nextInstance = nil, 0
function setup(thread)
  local list = os.getenv("WRK_INSTANCES")
  if not list or list == "" then return end
  if not instances then
    instances = {}
    for hostport in string.gmatch(list, "[^,]+") do
      local host, port = string.match(hostport, "^(.+):(%d+)$")
      instances[#instances + 1] = wrk.lookup(host, port)[1]
    end
  end
  thread.addr = instances[nextInstance % #instances + 1]
  nextInstance = nextInstance + 1
end

function init(args)
  health = args[1] == "health"
  if health then return end
  cards = {}
  for line in io.lines(args[1]) do
    if line ~= "" then cards[#cards + 1] = line end
  end
  headers = { ["Authorization"] = "Bearer " .. args[2], ["Content-Type"] = "application/json" }
  -- Each thread its own sequence: the same seed would send the same pairs from every thread.
  math.randomseed(os.time() * 1000 + (tonumber(string.match(tostring({}), "0x(%x+)"), 16) or 0) % 100000)
end

function request()
  if health then return wrk.format("GET", "/api/health") end
  local n = #cards
  local a = math.random(n)
  local b = math.random(n - 1)
  if b >= a then b = b + 1 end
  local body = '{"card_number":"' .. cards[a] .. '","destination_card_number":"' .. cards[b] .. '","amount":100}'
  return wrk.format("POST", "/api/v1/card/payouts", headers, body)
end
