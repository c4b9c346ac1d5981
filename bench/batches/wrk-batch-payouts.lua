-- wrk script for bench/batches: POST /card/payouts/batch with ITEMS card-to-card payouts of 100 between distinct random cards.
-- Arguments after `--`: the file of card numbers (one per line), the API key and the items per batch.
local cards, headers, items

function init(args)
  cards = {}
  for line in io.lines(args[1]) do
    if line ~= "" then cards[#cards + 1] = line end
  end
  headers = { ["Authorization"] = "Bearer " .. args[2], ["Content-Type"] = "application/json" }
  items = tonumber(args[3])
  math.randomseed(os.time() * 1000 + (tonumber(string.match(tostring({}), "0x(%x+)"), 16) or 0) % 100000)
end

function request()
  local n = #cards
  local parts = {}
  for i = 1, items do
    local a = math.random(n)
    local b = math.random(n - 1)
    if b >= a then b = b + 1 end
    parts[i] = '{"card_number":"' .. cards[a] .. '","destination_card_number":"' .. cards[b] .. '","amount":100}'
  end
  return wrk.format("POST", "/api/v1/card/payouts/batch", headers, '{"payouts":[' .. table.concat(parts, ",") .. ']}')
end
