package extract

// Claim patterns. Bounded repetitions everywhere: each attempt is linear in
// a few hundred runes, so a long line cannot make a pattern backtrack far.
var (
	urlRe     = pattern(`\b(?:(?:https?|ftp)://|www\.)[^\s<>"'\x60{}|\\^]{3,2000}`, ci)
	fileURLRe = pattern(`\bfile://(/[^\s<>"'\x60]{1,1000})`, ci)
	// Unix paths (absolute, ~/ or ./), Windows paths, and relative paths that
	// end in a file extension.
	pathRe = pattern(`(?<![\w/.:~@-])(?:(?:~|\.{1,2})?/[\w.@+-]{1,100}(?:/[\w.@+-]{1,100}){0,30}/?|[A-Za-z]:\\[\w .@+-]{1,100}(?:\\[\w .@+-]{1,100}){0,30}|[\w.-]{1,100}(?:/[\w.-]{1,100}){1,30}\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])`, 0)

	months      = `(?<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`
	isoDateRe   = pattern(`(?<![\d-])(?<y>\d{4})-(?<m>\d{1,2})-(?<d>\d{1,2})(?![\d-])`, 0)
	slashDateRe = pattern(`(?<![\d/.-])(?<m>\d{1,2})/(?<d>\d{1,2})/(?<y>\d{4}|\d{2})(?![\d/])`, 0)
	mdyDateRe   = pattern(`\b`+months+`\s{1,3}(?<d>\d{1,2})(?:st|nd|rd|th)?,?\s{1,3}(?<y>\d{4})\b`, ci)
	dmyDateRe   = pattern(`\b(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?`+months+`,?\s{1,3}(?<y>\d{4})\b`, ci)
	myDateRe    = pattern(`\b`+months+`,?\s{1,3}(?<y>\d{4})\b`, ci)

	// phoneRe marks phone numbers so that their parts are not read as numbers.
	phoneRe = pattern(`(?<![\w.])(?:\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}(?!\w)`, 0)

	// timeRe reads a time of day: "11pm", "7:30 a.m.", "23:05".
	timeRe = pattern(`(?<![\d:.,])(?<h>\d{1,2})(?::(?<min>\d{2}))?(?::\d{2})?\s{0,2}(?<ap>[ap]\.?\s?m)\b\.?|(?<![\d:.,])(?<h>\d{1,2}):(?<min>\d{2})(?::\d{2})?(?![\d:])`, ci)

	// numberRe reads a number with its sign, currency, thousands separators,
	// fraction, multiplier and unit. Whether it is a claim at all (a list
	// marker, a phone number, part of a range or an identifier is not) is
	// decided in Go after the match, where the surroundings are easy to read.
	// The look-aheads before the multiplier and the unit (the letters they
	// can begin with) change nothing but spare regexp2 trying some forty
	// alternatives after every number.
	numberRe = pattern(`(?<![\w.,/#:@])(?<sign>-(?=[\d$\\€£¥]))?(?<cur>(?:\\\$|US\$|[$€£¥]|USD|EUR|GBP)\s?)?(?<num>\d{1,3}(?:,\d{3}){1,6}|\d{1,20})(?<frac>\.\d{1,12})?(?:(?=\s{0,2}[tmbk])\s{0,2}(?<mult>thousand|million|billion|trillion|bn|mn|[kKMB])\b)?(?:(?=\s{0,2}[%pkmfl°dhswygtue])(?<sp>\s{0,2})(?<unit>%|percent\b|per ?cent\b|pct\b|km\b|kilomet(?:er|re)s?\b|miles?\b|mi\b|met(?:er|re)s?\b|m\b|ft\b|feet\b|foot\b|kg\b|kilograms?\b|lbs?\b|°\s?[CF]\b|degrees?\b|minutes?\b|mins?\b|hours?\b|hrs?\b|h\b|seconds?\b|secs?\b|s\b|days?\b|weeks?\b|months?\b|years?\b|yrs?\b|mph\b|km/h\b|[KMGT]B\b|USD\b|EUR\b|dollars?\b|euros?\b))?`, ci)
)
