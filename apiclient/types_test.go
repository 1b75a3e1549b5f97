package apiclient

import (
	"context"
	"net/http"
	"testing"
)

func TestDecodesBothFieldNames(t *testing.T) {
	for _, body := range []string{
		`{"active":true,"project_name":"P","errtracker_external_url":"https://e/","api_url":"https://a/","integrated":false}`,
		`{"active":true,"project_name":"P","sentry_external_url":"https://e/","api_url":"https://a/","integrated":false}`,
	} {
		c := setup(t, func(w http.ResponseWriter, r *http.Request) { jsonReply(w, 200, body) })
		s, _, err := c.GetSettings(context.Background(), ProjectID(1))
		if err != nil || s.ExternalURL == nil || *s.ExternalURL != "https://e/" || *s.ProjectName != "P" || s.Integrated {
			t.Fatalf("%+v %v", s, err)
		}
	}
}
