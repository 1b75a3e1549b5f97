package change

import (
	"context"
	"strconv"

	"github.com/errtrack/errtrack/apiclient"
	"github.com/errtrack/errtrack/internal/rotation"
)

// What the group changes' tests share with the rotation's: the words a
// run checks with, and a delete planned by key ID.

var testChecks = rotation.Checks{Keys: "check with 'errtrack keys list -p 1'", Variables: "check with 'errtrack api projects/1/variables'"}

// planDeletion plans the delete of GitLab key id.
func planDeletion(ctx context.Context, api rotation.RotationAPI, ref apiclient.ProjectRef, id int64, unasked bool) (rotation.Deletion, error) {
	return rotation.PlanDeletionIn(ctx, api, ref, nil, strconv.FormatInt(id, 10), unasked)
}
