package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRedoes(t *testing.T) {
	search := Call{Name: "web_search", Args: `{"query": "Bled Island bell"}`}
	other := Call{Name: "web_search", Args: `{"query": "Bled Island history"}`}
	login := "token = apis.spotify.login(username='a@b.c', password=pw)['access_token']\nplaylists = apis.spotify.show_playlist_library(access_token=token)\nprint(playlists)"
	list := "playlists = apis.spotify.show_playlist_library(access_token=token)\n\nprint(playlists)"
	count := "playlists = apis.spotify.show_playlist_library(access_token=token)\nprint(len([p for p in playlists if p['songs'] > 20]))"
	with := func(calls []Call, code ...string) *Features {
		return &Features{Details: &Details{Calls: calls, Code: code, Rare: noRare}}
	}
	for _, tt := range []struct {
		name string
		f, g *Features
		want bool
	}{
		{"the same call", with([]Call{search}), with([]Call{search}), true},
		{"the same tool with other arguments", with([]Call{other}), with([]Call{search}), false},
		{"code whose every line the earlier code ran", with(nil, list), with(nil, login), true},
		{"code that does something more", with(nil, count), with(nil, login), false},
		{"a step that acts on nothing", with(nil), with([]Call{search}), false},
	} {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, tt.f.Redoes(tt.g)) })
	}
}
