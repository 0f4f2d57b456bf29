package riichi

// Yaku ids follow Tenhou's numbering, as the CONTRACT fixes them.
const (
	YakuMenzenTsumo    = 0
	YakuRiichi         = 1
	YakuIppatsu        = 2
	YakuChankan        = 3
	YakuRinshan        = 4
	YakuHaitei         = 5
	YakuHoutei         = 6
	YakuPinfu          = 7
	YakuTanyao         = 8
	YakuIipeikou       = 9
	YakuSeatWind       = 10 // 10–13: East … North
	YakuRoundWind      = 14 // 14–17: East … North
	YakuHaku           = 18
	YakuHatsu          = 19
	YakuChun           = 20
	YakuDoubleRiichi   = 21
	YakuChiitoitsu     = 22
	YakuChanta         = 23
	YakuIttsu          = 24
	YakuSanshoku       = 25
	YakuSanshokuDoukou = 26
	YakuSankantsu      = 27
	YakuToitoi         = 28
	YakuSanankou       = 29
	YakuShousangen     = 30
	YakuHonroutou      = 31
	YakuRyanpeikou     = 32
	YakuJunchan        = 33
	YakuHonitsu        = 34
	YakuChinitsu       = 35
	YakuRenhou         = 36
	YakuTenhou         = 37
	YakuChiihou        = 38
	YakuDaisangen      = 39
	YakuSuuankou       = 40
	YakuSuuankouTanki  = 41
	YakuTsuuiisou      = 42
	YakuRyuuiisou      = 43
	YakuChinroutou     = 44
	YakuChuuren        = 45
	YakuJunseiChuuren  = 46
	YakuKokushi        = 47
	YakuKokushi13      = 48
	YakuDaisuushii     = 49
	YakuShousuushii    = 50
	YakuSuukantsu      = 51
	YakuDora           = 52
	YakuUraDora        = 53
	YakuAkaDora        = 54
	YakuNagashi        = 55
	YakuNukiDora       = 56
	numYaku            = 57
)

// yakuInfo is the table every yaku is read from: its name and its han when
// closed and when open (0: not allowed open). Yakuman carry their unit count
// in yakuman instead.
type yakuInfo struct {
	name         string
	closed, open int
	yakuman      int // units (1, or 2 for the double yakuman when the rules count them twice)
}

var yakuTable = [numYaku]yakuInfo{
	YakuMenzenTsumo:    {"Menzen Tsumo", 1, 0, 0},
	YakuRiichi:         {"Riichi", 1, 0, 0},
	YakuIppatsu:        {"Ippatsu", 1, 0, 0},
	YakuChankan:        {"Chankan", 1, 1, 0},
	YakuRinshan:        {"Rinshan Kaihou", 1, 1, 0},
	YakuHaitei:         {"Haitei Raoyue", 1, 1, 0},
	YakuHoutei:         {"Houtei Raoyui", 1, 1, 0},
	YakuPinfu:          {"Pinfu", 1, 0, 0},
	YakuTanyao:         {"Tanyao", 1, 1, 0},
	YakuIipeikou:       {"Iipeikou", 1, 0, 0},
	10:                 {"Seat Wind East", 1, 1, 0},
	11:                 {"Seat Wind South", 1, 1, 0},
	12:                 {"Seat Wind West", 1, 1, 0},
	13:                 {"Seat Wind North", 1, 1, 0},
	14:                 {"Round Wind East", 1, 1, 0},
	15:                 {"Round Wind South", 1, 1, 0},
	16:                 {"Round Wind West", 1, 1, 0},
	17:                 {"Round Wind North", 1, 1, 0},
	YakuHaku:           {"Haku", 1, 1, 0},
	YakuHatsu:          {"Hatsu", 1, 1, 0},
	YakuChun:           {"Chun", 1, 1, 0},
	YakuDoubleRiichi:   {"Double Riichi", 2, 0, 0},
	YakuChiitoitsu:     {"Chiitoitsu", 2, 0, 0},
	YakuChanta:         {"Chanta", 2, 1, 0},
	YakuIttsu:          {"Ittsu", 2, 1, 0},
	YakuSanshoku:       {"Sanshoku Doujun", 2, 1, 0},
	YakuSanshokuDoukou: {"Sanshoku Doukou", 2, 2, 0},
	YakuSankantsu:      {"Sankantsu", 2, 2, 0},
	YakuToitoi:         {"Toitoi", 2, 2, 0},
	YakuSanankou:       {"Sanankou", 2, 2, 0},
	YakuShousangen:     {"Shousangen", 2, 2, 0},
	YakuHonroutou:      {"Honroutou", 2, 2, 0},
	YakuRyanpeikou:     {"Ryanpeikou", 3, 0, 0},
	YakuJunchan:        {"Junchan", 3, 2, 0},
	YakuHonitsu:        {"Honitsu", 3, 2, 0},
	YakuChinitsu:       {"Chinitsu", 6, 5, 0},
	YakuRenhou:         {"Renhou", 5, 0, 0},
	YakuTenhou:         {"Tenhou", 0, 0, 1},
	YakuChiihou:        {"Chiihou", 0, 0, 1},
	YakuDaisangen:      {"Daisangen", 0, 0, 1},
	YakuSuuankou:       {"Suuankou", 0, 0, 1},
	YakuSuuankouTanki:  {"Suuankou Tanki", 0, 0, 2},
	YakuTsuuiisou:      {"Tsuuiisou", 0, 0, 1},
	YakuRyuuiisou:      {"Ryuuiisou", 0, 0, 1},
	YakuChinroutou:     {"Chinroutou", 0, 0, 1},
	YakuChuuren:        {"Chuuren Poutou", 0, 0, 1},
	YakuJunseiChuuren:  {"Junsei Chuuren Poutou", 0, 0, 2},
	YakuKokushi:        {"Kokushi Musou", 0, 0, 1},
	YakuKokushi13:      {"Kokushi Musou 13-sided", 0, 0, 2},
	YakuDaisuushii:     {"Daisuushii", 0, 0, 2},
	YakuShousuushii:    {"Shousuushii", 0, 0, 1},
	YakuSuukantsu:      {"Suukantsu", 0, 0, 1},
	YakuDora:           {"Dora", 0, 0, 0},
	YakuUraDora:        {"Ura Dora", 0, 0, 0},
	YakuAkaDora:        {"Aka Dora", 0, 0, 0},
	YakuNagashi:        {"Nagashi Mangan", 0, 0, 0},
	YakuNukiDora:       {"Nuki Dora", 0, 0, 0},
}

// YakuName is the name of a yaku id.
func YakuName(id int) string {
	if id < 0 || id >= numYaku {
		return ""
	}
	return yakuTable[id].name
}
