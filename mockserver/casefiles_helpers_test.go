package mockserver

import "github.com/signkit/signkit-go/mockserver/internal/testkit"

// cfTitled is the kit's one-signer case file with a title and extra fields,
// under the name the Send tests of this package use.
var cfTitled = testkit.TitledCase
