// Package tournament keeps the record of tournament play: games (every hand
// in order, with the scored hand and its breakdown, honba, riichi sticks,
// draws and penalties, and running scores that always balance), the end of
// game scoring each rule set's tournaments use, the MSMC 2016 qualifier and
// finals formats, standings across games (CSV) and MJAI export of riichi
// games.
//
// A hand is settled before it is recorded: Game.Settle works out what the
// hand changes and checks that the changes balance, without changing the
// game (so it is also how a hand is validated), and Game.Apply makes the
// changes. Tournament.CheckAdd and Tournament.CheckPenalty validate in the
// same way.
//
// Players are named by their original seat: seat 0 is the first dealer
// (original East), then original South, West and North. Seat winds move
// with the deal; the original seat never does, and it breaks ties (seed 000:
// "the original dealer's score is considered to be higher than anyone he
// ties with, then the original South, then West, and the original North
// player loses all ties").
package tournament
