# What the gitlab gem reads of a GitLab's group routes: printed as JSON.
#
# Usage: read_groups.rb URL TOKEN. Run by contract_test.go against the mock
# and against GitLab's answers (internal/contract), whose outputs must match.
require 'gitlab'
require 'json'

url, token = ARGV
c = Gitlab.client(endpoint: "#{url}/api/v4", private_token: token)

def hashes(list)
  list.map(&:to_h)
end

out = {
  'group' => c.group('ops').to_h,
  'maintained' => hashes(c.group_projects('ops', min_access_level: 40).auto_paginate),
  'all' => hashes(c.group_projects('ops', min_access_level: 10).auto_paginate),
  'project_13' => c.project(13).to_h,
  'project_12' => c.project(12).to_h,
  'project_10' => c.project(10).to_h,
  'project_10_variables' => hashes(c.variables(10).auto_paginate),
  'project_12_variables' => hashes(c.variables(12).auto_paginate),
  'group_variables' => hashes(c.group_variables('ops').auto_paginate)
}
puts JSON.generate(out)
