package extract

import "strings"

// airportCities are the cities (and the airports' own names) that an
// airport's IATA code serves, in lower case: a call that gives "LHR"
// where the task says London names London's airport, a code worked out
// from the city, not made up. Major airports of the world only.
var airportCities = map[string][]string{
	// Europe
	"LHR": {"london", "heathrow"}, "LGW": {"london", "gatwick"}, "STN": {"london", "stansted"}, "LTN": {"london", "luton"}, "LCY": {"london"},
	"MAN": {"manchester"}, "EDI": {"edinburgh"}, "GLA": {"glasgow"}, "BHX": {"birmingham"}, "BRS": {"bristol"}, "DUB": {"dublin"},
	"CDG": {"paris", "charles de gaulle"}, "ORY": {"paris", "orly"}, "NCE": {"nice"}, "LYS": {"lyon"}, "MRS": {"marseille"}, "TLS": {"toulouse"}, "BOD": {"bordeaux"}, "NTE": {"nantes"},
	"AMS": {"amsterdam", "schiphol"}, "RTM": {"rotterdam"}, "EIN": {"eindhoven"}, "BRU": {"brussels"}, "LUX": {"luxembourg"},
	"FRA": {"frankfurt"}, "MUC": {"munich"}, "BER": {"berlin"}, "HAM": {"hamburg"}, "DUS": {"dusseldorf", "düsseldorf"}, "CGN": {"cologne", "köln"}, "STR": {"stuttgart"},
	"ZRH": {"zurich", "zürich"}, "GVA": {"geneva"}, "BSL": {"basel"}, "VIE": {"vienna", "wien"}, "SZG": {"salzburg"},
	"MAD": {"madrid"}, "BCN": {"barcelona"}, "AGP": {"malaga", "málaga"}, "PMI": {"palma", "mallorca"}, "SVQ": {"seville", "sevilla"}, "VLC": {"valencia"}, "BIO": {"bilbao"},
	"LIS": {"lisbon", "lisboa"}, "OPO": {"porto", "oporto"}, "FAO": {"faro"},
	"FCO": {"rome", "fiumicino"}, "CIA": {"rome"}, "MXP": {"milan", "malpensa"}, "LIN": {"milan", "linate"}, "VCE": {"venice"}, "NAP": {"naples"}, "FLR": {"florence"}, "BLQ": {"bologna"}, "PSA": {"pisa"},
	"CPH": {"copenhagen"}, "ARN": {"stockholm", "arlanda"}, "OSL": {"oslo"}, "HEL": {"helsinki"}, "KEF": {"reykjavik", "keflavik"},
	"WAW": {"warsaw"}, "KRK": {"krakow", "kraków"}, "PRG": {"prague"}, "BUD": {"budapest"}, "OTP": {"bucharest"}, "SOF": {"sofia"}, "ATH": {"athens"}, "IST": {"istanbul"}, "SAW": {"istanbul"},
	"ZAG": {"zagreb"}, "SPU": {"split"}, "DBV": {"dubrovnik"}, "LJU": {"ljubljana"}, "BEG": {"belgrade"}, "RIX": {"riga"}, "TLL": {"tallinn"}, "VNO": {"vilnius"},
	// North America
	"JFK": {"new york"}, "LGA": {"new york", "laguardia"}, "EWR": {"newark", "new york"}, "BOS": {"boston"}, "ORD": {"chicago", "o'hare"}, "MDW": {"chicago"},
	"LAX": {"los angeles"}, "SFO": {"san francisco"}, "SJC": {"san jose"}, "OAK": {"oakland"}, "SEA": {"seattle"}, "PDX": {"portland"}, "SAN": {"san diego"},
	"DEN": {"denver"}, "DFW": {"dallas"}, "IAH": {"houston"}, "AUS": {"austin"}, "ATL": {"atlanta"}, "MIA": {"miami"}, "MCO": {"orlando"}, "TPA": {"tampa"},
	"IAD": {"washington"}, "DCA": {"washington"}, "BWI": {"baltimore"}, "PHL": {"philadelphia"}, "CLT": {"charlotte"}, "DTW": {"detroit"}, "MSP": {"minneapolis"},
	"LAS": {"las vegas"}, "PHX": {"phoenix"}, "SLC": {"salt lake city"}, "HNL": {"honolulu"}, "ANC": {"anchorage"}, "BNA": {"nashville"}, "MSY": {"new orleans"},
	"YYZ": {"toronto"}, "YVR": {"vancouver"}, "YUL": {"montreal", "montréal"}, "YYC": {"calgary"}, "YOW": {"ottawa"},
	"MEX": {"mexico city"}, "CUN": {"cancun", "cancún"},
	// Elsewhere
	"GRU": {"sao paulo", "são paulo"}, "GIG": {"rio de janeiro"}, "EZE": {"buenos aires"}, "SCL": {"santiago"}, "LIM": {"lima"}, "BOG": {"bogota", "bogotá"},
	"DXB": {"dubai"}, "AUH": {"abu dhabi"}, "DOH": {"doha"}, "TLV": {"tel aviv"}, "CAI": {"cairo"}, "JNB": {"johannesburg"}, "CPT": {"cape town"}, "NBO": {"nairobi"},
	"DEL": {"delhi", "new delhi"}, "BOM": {"mumbai"}, "BLR": {"bangalore", "bengaluru"}, "SIN": {"singapore"}, "BKK": {"bangkok"}, "KUL": {"kuala lumpur"}, "CGK": {"jakarta"},
	"HKG": {"hong kong"}, "PEK": {"beijing"}, "PKX": {"beijing"}, "PVG": {"shanghai"}, "SHA": {"shanghai"}, "CAN": {"guangzhou"}, "TPE": {"taipei"},
	"NRT": {"tokyo", "narita"}, "HND": {"tokyo", "haneda"}, "KIX": {"osaka"}, "ICN": {"seoul", "incheon"}, "MNL": {"manila"},
	"SYD": {"sydney"}, "MEL": {"melbourne"}, "BNE": {"brisbane"}, "PER": {"perth"}, "AKL": {"auckland"},
}

// AirportCities returns the cities, and the airport's own names, that an
// airport's IATA code serves, in lower case; nil for a code the table
// does not list. code is matched in upper case only: "BER" is Berlin's,
// "ber" is a word.
func AirportCities(code string) []string {
	if len(code) != 3 || strings.ToUpper(code) != code {
		return nil
	}
	return airportCities[code]
}
