package riichi

import (
	"mjscan/scoring"
)

// yakuHan is one yaku of an evaluation: han, or yakuman units.
type yakuHan struct {
	id      uint8
	han     uint8
	yakuman uint8
}

// fuReason names why fu were earned.
type fuReason uint8

const (
	fuBase fuReason = iota
	fuMenzenRon
	fuTsumo
	fuOpenPinfu
	fuSevenPairs
	fuWait
	fuPair
	fuSet
)

var fuReasons = [...]string{
	fuBase:       "base",
	fuMenzenRon:  "concealed hand won on a discard",
	fuTsumo:      "self-draw",
	fuOpenPinfu:  "open hand with no fu is raised to 30",
	fuSevenPairs: "seven pairs",
	fuWait:       "wait",
	fuPair:       "pair",
	fuSet:        "set",
}

// fuItem is one line of the fu table, tied to the set that earned it
// (index into reading.Sets, -1 for the pair or none).
type fuItem struct {
	fu     uint8
	reason fuReason
	set    int8
}

// eval is the scored value of one reading.
type eval struct {
	r       reading
	yaku    [20]yakuHan
	nYaku   int
	fuItems [10]fuItem
	nFu     int
	han     int // yaku han plus dora (0 for a yakuman hand)
	yakuHan int // han from yaku alone
	fu      int
	yakuman int
	base    int // basic points
	limit   string
	pay     int // what the winner receives, for comparing readings
	setFu   int
}

func (e *eval) add(id int, han int) {
	e.yaku[e.nYaku] = yakuHan{id: uint8(id), han: uint8(han)}
	e.nYaku++
}

func (e *eval) addYakuman(id int, units int) {
	e.yaku[e.nYaku] = yakuHan{id: uint8(id), yakuman: uint8(units)}
	e.nYaku++
	e.yakuman += units
}

func (e *eval) addFu(fu int, reason fuReason, set int8) {
	e.fuItems[e.nFu] = fuItem{fu: uint8(fu), reason: reason, set: set}
	e.nFu++
}

// evaluate scores one reading under the hand's facts.
func (f *facts) evaluate(r *reading, e *eval) {
	*e = eval{r: *r}
	h := f.h
	rules := f.rules

	f.yakuman(r, e)
	if e.yakuman > 0 {
		e.base = 8000 * e.yakuman
		e.limit = "yakuman"
		e.pay = f.payTotal(e.base)
		return
	}

	closed := f.closed
	han := func(id int) int {
		if closed {
			return yakuTable[id].closed
		}
		return yakuTable[id].open
	}

	// Situation yaku.
	if h.DoubleRiichi {
		e.add(YakuDoubleRiichi, 2)
	} else if h.Riichi {
		e.add(YakuRiichi, 1)
	}
	if h.Ippatsu {
		e.add(YakuIppatsu, 1)
	}
	if h.Tsumo && closed {
		e.add(YakuMenzenTsumo, 1)
	}
	if h.Chankan {
		e.add(YakuChankan, 1)
	}
	if h.Rinshan {
		e.add(YakuRinshan, 1)
	}
	if h.Haitei {
		e.add(YakuHaitei, 1)
	}
	if h.Houtei {
		e.add(YakuHoutei, 1)
	}
	if h.Renhou && rules.Renhou {
		e.add(YakuRenhou, 5)
	}

	// Tile-set yaku: the same for every reading.
	if f.simples && (closed || rules.OpenTanyao) {
		e.add(YakuTanyao, 1)
	}
	oneSuit := f.suits == 1 || f.suits == 2 || f.suits == 4
	if oneSuit && !f.honors {
		e.add(YakuChinitsu, han(YakuChinitsu))
	} else if oneSuit && f.honors {
		e.add(YakuHonitsu, han(YakuHonitsu))
	}
	if f.termHon && !f.honOnly && !f.termOnl {
		e.add(YakuHonroutou, 2)
	}

	if r.form == formSevenPairs {
		e.add(YakuChiitoitsu, 2)
		e.addFu(25, fuSevenPairs, -1)
		e.fu = 25
	} else {
		f.setYaku(r, e, han)
		f.fu(r, e)
	}

	e.yakuHan = 0
	for i := 0; i < e.nYaku; i++ {
		e.yakuHan += int(e.yaku[i].han)
	}
	if e.yakuHan == 0 {
		return // no yaku: dora do not make a hand
	}
	e.han = e.yakuHan
	if f.dora > 0 {
		e.add(YakuDora, f.dora)
	}
	if f.ura > 0 {
		e.add(YakuUraDora, f.ura)
	}
	if f.aka > 0 {
		e.add(YakuAkaDora, f.aka)
	}
	if f.nuki > 0 {
		e.add(YakuNukiDora, f.nuki)
	}
	e.han += f.dora + f.ura + f.aka + f.nuki
	e.base, e.limit = rules.basePoints(e.han, e.fu)
	e.pay = f.payTotal(e.base)
}

// setYaku adds the yaku that depend on how the hand is read.
func (f *facts) setYaku(r *reading, e *eval, han func(int) int) {
	h := f.h
	var chows, pungs [scoring.NumKinds]uint8 // pungs counts kongs too
	nChow, nConcealedPung, nKong := 0, 0, 0
	allTermHon := r.Pair.IsTerminalOrHonor() // every set and the pair holds a terminal or honor
	anyChow := false
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.Kind == scoring.Chow {
			chows[s.Tile]++
			nChow++
			anyChow = true
			if s.Tile%9 != 0 && s.Tile%9 != 6 {
				allTermHon = false
			}
			continue
		}
		pungs[s.Tile]++
		if s.Kind == scoring.Kong {
			nKong++
		}
		if s.Concealed {
			nConcealedPung++
		}
		if !s.Tile.IsTerminalOrHonor() {
			allTermHon = false
		}
	}

	// Pinfu: closed, four chows, a pair worth no fu, a two-sided wait.
	if f.closed && nChow == 4 && r.Wait == scoring.Ryanmen && !f.valuedPair(r.Pair) {
		e.add(YakuPinfu, 1)
	}
	// Iipeikou and ryanpeikou (closed only).
	if f.closed {
		peiko := 0
		for t := range chows {
			peiko += int(chows[t] / 2)
		}
		if peiko == 2 {
			e.add(YakuRyanpeikou, 3)
		} else if peiko == 1 {
			e.add(YakuIipeikou, 1)
		}
	}
	// Yakuhai.
	seat, round := f.h.Seat.Tile(), f.h.Round.Tile()
	if pungs[seat] > 0 {
		e.add(YakuSeatWind+int(h.Seat), 1)
	}
	if pungs[round] > 0 {
		e.add(YakuRoundWind+int(h.Round), 1)
	}
	if pungs[scoring.White] > 0 {
		e.add(YakuHaku, 1)
	}
	if pungs[scoring.Green] > 0 {
		e.add(YakuHatsu, 1)
	}
	if pungs[scoring.Red] > 0 {
		e.add(YakuChun, 1)
	}
	// Shousangen: two dragon pungs and a dragon pair.
	if r.Pair.IsDragon() {
		d := 0
		for t := scoring.White; t <= scoring.Red; t++ {
			d += int(pungs[t])
		}
		if d == 2 {
			e.add(YakuShousangen, 2)
		}
	}
	// Chanta and junchan; honroutou already covers all-pung outside hands.
	if allTermHon && anyChow {
		if f.honors {
			e.add(YakuChanta, han(YakuChanta))
		} else {
			e.add(YakuJunchan, han(YakuJunchan))
		}
	}
	// Ittsu: 123 456 789 of one suit.
	for s := scoring.Tile(0); s < 27; s += 9 {
		if chows[s] > 0 && chows[s+3] > 0 && chows[s+6] > 0 {
			e.add(YakuIttsu, han(YakuIttsu))
		}
	}
	// Sanshoku doujun and doukou.
	for n := scoring.Tile(0); n < 7; n++ {
		if chows[n] > 0 && chows[n+9] > 0 && chows[n+18] > 0 {
			e.add(YakuSanshoku, han(YakuSanshoku))
			break
		}
	}
	for n := scoring.Tile(0); n < 9; n++ {
		if pungs[n] > 0 && pungs[n+9] > 0 && pungs[n+18] > 0 {
			e.add(YakuSanshokuDoukou, 2)
			break
		}
	}
	if nChow == 0 {
		e.add(YakuToitoi, 2)
	}
	if nConcealedPung == 3 {
		e.add(YakuSanankou, 2)
	}
	if nKong == 3 {
		e.add(YakuSankantsu, 2)
	}
}

// valuedPair reports whether a pair of t earns fu (dragon, seat or round wind).
func (f *facts) valuedPair(t scoring.Tile) bool {
	return t.IsDragon() || t == f.h.Seat.Tile() || t == f.h.Round.Tile()
}

// fu fills the fu table of a standard reading.
func (f *facts) fu(r *reading, e *eval) {
	h := f.h
	e.addFu(20, fuBase, -1)
	switch r.Wait {
	case scoring.Kanchan, scoring.Penchan, scoring.Tanki:
		e.addFu(2, fuWait, r.Win)
	}
	// Pair.
	pairFu := 0
	if r.Pair.IsDragon() {
		pairFu = 2
	}
	seat, round := h.Seat.Tile() == r.Pair, h.Round.Tile() == r.Pair
	switch {
	case seat && round:
		pairFu += f.rules.DoubleWindFu
	case seat || round:
		pairFu += 2
	}
	if pairFu > 0 {
		e.addFu(pairFu, fuPair, -1)
	}
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.Kind == scoring.Chow {
			continue
		}
		fu := 2
		if s.Tile.IsTerminalOrHonor() {
			fu *= 2
		}
		if s.Concealed {
			fu *= 2
		}
		if s.Kind == scoring.Kong {
			fu *= 4
		}
		e.setFu += fu
		e.addFu(fu, fuSet, int8(i))
	}
	extra := e.nFu > 1 // any fu beyond the base
	switch {
	case h.Tsumo && (extra || !f.closed):
		e.addFu(2, fuTsumo, -1)
	case !h.Tsumo && f.closed:
		e.addFu(10, fuMenzenRon, -1)
	case !h.Tsumo && !f.closed && !extra:
		e.addFu(10, fuOpenPinfu, -1)
	}
	total := 0
	for i := 0; i < e.nFu; i++ {
		total += int(e.fuItems[i].fu)
	}
	e.fu = (total + 9) / 10 * 10
}

// yakuman adds every yakuman the reading earns.
func (f *facts) yakuman(r *reading, e *eval) {
	h := f.h
	rules := f.rules
	double := func(id int) int {
		if rules.DoubleYakuman {
			return yakuTable[id].yakuman
		}
		return 1
	}
	if h.Tenhou {
		e.addYakuman(YakuTenhou, 1)
	}
	if h.Chiihou {
		e.addYakuman(YakuChiihou, 1)
	}
	if r.form == formOrphans {
		c := f.all
		c[f.win]--
		if c[f.win] == 1 { // all thirteen were waiting: 13-sided
			e.addYakuman(YakuKokushi13, double(YakuKokushi13))
		} else {
			e.addYakuman(YakuKokushi, 1)
		}
		return
	}
	if f.honOnly {
		e.addYakuman(YakuTsuuiisou, 1)
	}
	if f.termOnl {
		e.addYakuman(YakuChinroutou, 1)
	}
	if f.green {
		e.addYakuman(YakuRyuuiisou, 1)
	}
	if r.form == formSevenPairs {
		return
	}
	var pungs [scoring.NumKinds]uint8
	concealed, kongs := 0, 0
	for i := range r.Sets {
		s := &r.Sets[i]
		if s.Kind == scoring.Chow {
			continue
		}
		pungs[s.Tile]++
		if s.Concealed {
			concealed++
		}
		if s.Kind == scoring.Kong {
			kongs++
		}
	}
	if pungs[scoring.White] > 0 && pungs[scoring.Green] > 0 && pungs[scoring.Red] > 0 {
		e.addYakuman(YakuDaisangen, 1)
	}
	winds := 0
	for t := scoring.East; t <= scoring.North; t++ {
		winds += int(pungs[t])
	}
	if winds == 4 {
		e.addYakuman(YakuDaisuushii, double(YakuDaisuushii))
	} else if winds == 3 && r.Pair.IsWind() {
		e.addYakuman(YakuShousuushii, 1)
	}
	if concealed == 4 {
		if r.Wait == scoring.Tanki {
			e.addYakuman(YakuSuuankouTanki, double(YakuSuuankouTanki))
		} else {
			e.addYakuman(YakuSuuankou, 1)
		}
	}
	if kongs == 4 {
		e.addYakuman(YakuSuukantsu, 1)
	}
	// Chuuren poutou: closed, one suit, 1112345678999 plus one.
	if f.nMelds == 0 && !f.honors && (f.suits == 1 || f.suits == 2 || f.suits == 4) {
		s := f.win / 9 * 9
		if f.win >= 27 {
			return
		}
		c := f.all
		need := [9]uint8{3, 1, 1, 1, 1, 1, 1, 1, 3}
		ok := true
		for i := scoring.Tile(0); i < 9; i++ {
			if c[s+i] < need[i] {
				ok = false
			}
		}
		if ok {
			c[f.win]--
			pure := true
			for i := scoring.Tile(0); i < 9; i++ {
				if c[s+i] != need[i] {
					pure = false
				}
			}
			if pure {
				e.addYakuman(YakuJunseiChuuren, double(YakuJunseiChuuren))
			} else {
				e.addYakuman(YakuChuuren, 1)
			}
		}
	}
}
