package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDoneAndAsked reads the actions a step reports done (perfect or
// passive, not negated, not in a clause of condition or time: an agent
// telling what will follow an action it asks to confirm) and the changes it asks another to make (a
// request's words before a verb of change; asking to check or confirm
// changes nothing), or a sentence that opens with a verb of change before
// its object (an order's noun opening a sentence is none). Shapes:
// tau-bench retail and airline conversations.
func TestDoneAndAsked(t *testing.T) {
	for _, tt := range []struct {
		text        string
		done, asked []string
	}{
		{"Your order #W7710021 has been cancelled and I've refunded $64.", []string{"cancelled", "refunded"}, nil},
		{"The reservation is now successfully booked.", []string{"booked"}, nil},
		{"The order has not been cancelled yet.", nil, nil},
		{"Order #W4817420 ($135.24) is pending. Once the order is cancelled, the refund goes back to your PayPal account. If it is returned, we refund it too. Do you confirm?", nil, nil},
		{"When I checked, the order had already shipped; I've refunded the $5.99 fee.", []string{"shipped", "refunded"}, nil},
		{"Hi! Please cancel my order, and could you also refund the fee?", nil, []string{"cancel", "refund"}},
		{"Could you check the price? Please confirm.", nil, nil},
		{"Book me a hotel in Lisbon for 2 nights. Refund just that mug, please.", nil, []string{"book", "refund"}},
		{"Order 88412 arrived with one broken mug. Return policy: 30 days.", nil, nil},
		{"The draft has been sent to Priya, and the invoice is paid.", []string{"sent", "paid"}, nil},
		{"The message has not been sent.", nil, nil},
	} {
		tx := newText(tt.text)
		assert.Equal(t, tt.done, done(tx), tt.text)
		assert.Equal(t, tt.asked, asked(tx), tt.text)
	}
}

// TestVerbForms gives the forms a participle's verb is written in.
func TestVerbForms(t *testing.T) {
	assert.Equal(t, []string{"cancell", "cancelle", "cancel"}, VerbForms("cancelled"))
	assert.Equal(t, []string{"updat", "update"}, VerbForms("updated"))
	assert.Equal(t, []string{"modifi", "modifie", "modify"}, VerbForms("modified"))
	assert.Equal(t, []string{"send"}, VerbForms("sent"))
	assert.Nil(t, VerbForms("red"))
}

// TestRefused reads the actions a step says cannot be taken, by the verb
// or its act's noun; an action that can be taken is none, nor one that
// waits on the other party ("until you confirm"). Shapes:
// tau-bench airline and retail refusals.
func TestRefused(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"Sorry, R5QX1B was booked over 24 hours ago, so it can't be cancelled.", []string{"cancelled"}},
		{"I'm unable to refund it, and the order is not eligible for an exchange.", []string{"refund", "exchange"}},
		{"I can’t modify a delivered order.", []string{"modify"}},
		{"I can cancel it for you.", nil},
		{"I can't cancel it until you confirm: the refund of $135.24 goes back to your PayPal account.", nil},
		{"I'm unable to process the exchange without your explicit confirmation. Shall I go ahead?", nil},
		{"It can't be refunded without a receipt. Before you go, anything else?", []string{"refunded"}},
		{"I'm on the sales team, so I can't issue refunds, but I can offer a discount.", []string{"refunds"}},
		{"We are not able to process the cancellation today.", []string{"cancellation"}},
		{"I can't issue any guarantees.", []string{"issue"}},
	} {
		assert.Equal(t, tt.want, refused(newText(tt.text)), tt.text)
	}
}

// TestRelativeDay reads whether a step names a day by where it falls
// from today, a weekday after a word that sets a time by it ("to
// Thursday", "by Friday") among them; a date written out, a weekday
// written beside its date ("on Saturday 15 May"), or "Monday" alone as a
// name, does not.
func TestRelativeDay(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"What is the earliest flight next Monday?", true},
		{"Book it for tomorrow, please.", true},
		{"Can you check again in 3 days?", true},
		{"Please move my appointment to Thursday afternoon.", true},
		{"I need it by Friday.", true},
		{"The flight leaves on 2026-11-30.", false},
		{"Cyber Monday deals.", false},
		{"I'm free Monday to Friday, any time.", false},
		{"We are open from Tuesday until Saturday.", false},
		{"Mondays to Fridays suit me.", false},
		{"Please move my appointment from Monday to Thursday.", true},
		{"Can you reschedule the delivery from Tuesday until Friday?", true},
		{"Organise the offsite on Saturday 15 May 2027 for 80 people.", false},
		{"The meeting is on Tuesday, March 3rd.", false},
		{"Book it for this Friday, 12 June.", false},
		{"Book it for Friday the 12th.", false},
		{"Can we meet on Friday at 10?", true},
		{"What will the high be in Lyon in three days?", true},
		{"Remind me in a couple of days.", true},
		{"Ship it in two weeks.", true},
		{"It took three days to arrive.", false},
	} {
		assert.Equal(t, tt.want, newText(tt.text).has(relativeDayRe), tt.text)
	}
}
