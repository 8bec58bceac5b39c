package extract

// EstimateTokens is the one token estimate offattr uses everywhere (context
// budgets, prompt sizes, usage reports when a server gives none): the number
// of bytes divided by four, rounded up. It is deliberately model-free: it
// over-counts English a little (about 4.2 bytes a token for GPT-style BPE)
// and under-counts CJK text, which is the safe side for the first and
// tolerable for the second.
func EstimateTokens(s string) int {
	return (len(s) + 3) / 4
}

// TokensToBytes is the largest byte length whose estimate fits n tokens.
func TokensToBytes(n int) int {
	if n <= 0 {
		return 0
	}
	return n * 4
}
