-- wrk script for bench/holds. Arguments after `--`: mode, file of card numbers (one per line), API key.
-- hold-capture: each thread places holds of 100 on random cards and captures each one it was answered (a till's two steps);
-- redeem: redemptions of 100 on random cards (the one-step spend, for comparison); health: GET /api/health.
local mode, cards, headers
local queue = {}

function init(args)
  mode = args[1]
  if mode == "health" then return end
  cards = {}
  for line in io.lines(args[2]) do
    if line ~= "" then cards[#cards + 1] = line end
  end
  headers = { ["Authorization"] = "Bearer " .. args[3], ["Content-Type"] = "application/json" }
  math.randomseed(os.time() * 1000 + (tonumber(string.match(tostring({}), "0x(%x+)"), 16) or 0) % 100000)
end

function request()
  if mode == "health" then return wrk.format("GET", "/api/health") end
  local card = cards[math.random(#cards)]
  if mode == "redeem" then
    return wrk.format("POST", "/api/v1/card/" .. card .. "/redemptions", headers, '{"amount":100}')
  end
  local reference = table.remove(queue, 1)
  if reference then
    return wrk.format("POST", "/api/v1/card/holds/" .. reference .. "/capture", headers, "{}")
  end
  return wrk.format("POST", "/api/v1/card/" .. card .. "/holds", headers, '{"amount":100}')
end

function response(status, _, body)
  if mode ~= "hold-capture" or status ~= 201 then return end
  local reference = string.match(body, '"hold_reference":"(hld_[%w]+)"')
  if reference then queue[#queue + 1] = reference end
end
