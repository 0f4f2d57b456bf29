package tournament

import "mjscan/scoring"

// Outcome is how a hand ended.
type Outcome string

const (
	// Win: a player won (From is the discarder, or NoSeat for a self-draw).
	Win Outcome = "win"
	// Draw: an exhaustive draw (Tenpai lists who was ready).
	Draw Outcome = "draw"
	// Chombo: the hand could not go on (seed 000); Player is the offender.
	Chombo Outcome = "chombo"
	// FalseWin: a declared win that was not one (MCR pays, WSM records
	// penalty tiles); Player is the declarer.
	FalseWin Outcome = "false_win"
)

// NoSeat marks "nobody": a self-draw has no discarder.
const NoSeat = -1

// Play is what the table reports at the end of a hand. Seats are original
// seats (0 = first dealer).
type Play struct {
	Outcome Outcome `json:"outcome"`
	// Player is the winner, the chombo offender or the false declarer.
	Player int `json:"player"`
	// From is the discarder of a winning tile, NoSeat for a self-draw.
	From int `json:"from"`
	// Hand is the winning hand (or the falsely declared one). The game
	// fills in what it knows better than the table: seat and round wind,
	// honba, riichi sticks, self-draw, riichi and the discarder.
	Hand *scoring.Request `json:"hand,omitempty"`
	// Riichi lists the players who declared riichi during this hand.
	Riichi []int `json:"riichi,omitempty"`
	// Tenpai lists the players ready at an exhaustive draw.
	Tenpai []int `json:"tenpai,omitempty"`
	// PoolOfDreams lists the players who earned a Pool of Dreams (nagashi
	// mangan) at an exhaustive draw.
	PoolOfDreams []int `json:"pool_of_dreams,omitempty"`
	// DeadHands lists the players whose hand was dead (seed 000): never
	// tenpai at a draw, may not win.
	DeadHands []int `json:"dead_hands,omitempty"`
	// FalseWinKind is the false win's kind when the hand is not given:
	// scoring.CodeBelowMinimum or scoring.CodeNotAWin.
	FalseWinKind string `json:"false_win_kind,omitempty"`
	// PenaltyTiles lists the tiles left open as penalty tiles (WSM).
	PenaltyTiles string `json:"penalty_tiles,omitempty"`
	Note         string `json:"note,omitempty"`
}

// HandRecord is one hand of the game as it was settled.
type HandRecord struct {
	// Number counts hands from 1 in the order played.
	Number int `json:"number"`
	// Round names the hand the way players do: "E1", "S4".
	Round     string `json:"round"`
	RoundWind string `json:"round_wind"`
	Dealer    int    `json:"dealer"`
	Honba     int    `json:"honba"`
	// SticksBefore counts riichi sticks on the table when the hand began.
	SticksBefore int  `json:"sticks_before"`
	Play         Play `json:"play"`
	// Result is the scored hand with its breakdown (wins, false wins).
	Result *scoring.Result `json:"result,omitempty"`
	// Deltas is what each player gained (+) or paid (−), riichi bets
	// included.
	Deltas [4]int `json:"deltas"`
	// Scores after the hand, and the riichi sticks left on the table.
	Scores      [4]int `json:"scores"`
	SticksAfter int    `json:"sticks_after"`
	// Explain says, line by line, why the points moved.
	Explain []string `json:"explain"`
	// Corrections counts the referee's corrections of this hand; the
	// hands it replaced are the game's Corrected.
	Corrections int `json:"corrections,omitempty"`
}

// Penalty is a score penalty taken off a player's final score (seed 000:
// "no one else at the tournament gains points"), or a record-only entry
// such as WSM penalty tiles (Points 0).
type Penalty struct {
	Player string `json:"player"`
	// Points deducted from the final score.
	Points int    `json:"points"`
	Reason string `json:"reason"`
	// Stage is "qualifier" or "final" for MSMC (the finals reset the final
	// score, so a penalty counts in the stage it was given).
	Stage string `json:"stage,omitempty"`
	Game  string `json:"game,omitempty"`
}
