package projectscope

// ValidVariableName reports whether s is a CI/CD variable key GitLab
// accepts: 1 to 255 letters, digits and underscores. (A regexp with
// {1,255} compiles to 255 copies of its class: a millisecond at every
// start of errtrack, for a check this loop makes in nanoseconds.)
func ValidVariableName(s string) bool {
	if len(s) == 0 || len(s) > 255 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}
