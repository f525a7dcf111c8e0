"""Pure mahjong rules: tiles, hands, decomposition, waits and the variants' rulesets."""
