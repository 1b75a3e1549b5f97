// Package peers holds tests in which other programs' clients read
// errtrack's mock servers as they read the real servers. It is a module of
// its own so that their dependencies stay out of errtrack's.
package peers
