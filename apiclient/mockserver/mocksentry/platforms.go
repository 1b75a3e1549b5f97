package mocksentry

import "slices"

// validPlatform is Project.is_valid_platform (src/sentry/models/project.py,
// the stored version with region_silo_only_model): none, "other", or one
// of GETTING_STARTED_DOCS_PLATFORMS. ProjectPostSerializer.validate_platform
// (src/sentry/core/endpoints/team_projects.py @d60df2f2) refuses any other
// with 400 "Invalid platform". Later releases add platforms to the list:
// the mock refuses those, never accepting one Sentry refuses.
func validPlatform(p string) bool {
	return p == "" || p == "other" || slices.Contains(gettingStartedDocsPlatforms, p)
}

var gettingStartedDocsPlatforms = []string{
	"android", "apple", "apple-ios", "apple-macos", "bun", "capacitor", "cordova", "dart", "dotnet",
	"dotnet-aspnet", "dotnet-aspnetcore", "dotnet-awslambda", "dotnet-gcpfunctions", "dotnet-maui", "dotnet-uwp",
	"dotnet-winforms", "dotnet-wpf", "dotnet-xamarin", "electron", "elixir", "flutter", "go", "go-echo",
	"go-fasthttp", "go-gin", "go-http", "go-iris", "go-martini", "go-negroni", "ionic", "java", "java-log4j2",
	"java-logback", "java-spring", "java-spring-boot", "javascript", "javascript-angular", "javascript-astro",
	"javascript-ember", "javascript-gatsby", "javascript-nextjs", "javascript-react", "javascript-remix",
	"javascript-svelte", "javascript-sveltekit", "javascript-vue", "kotlin", "minidump", "native", "native-qt",
	"node", "node-awslambda", "node-azurefunctions", "node-connect", "node-express", "node-gcpfunctions",
	"node-koa", "node-serverlesscloud", "php", "php-laravel", "php-symfony", "python", "python-aiohttp",
	"python-asgi", "python-awslambda", "python-bottle", "python-celery", "python-chalice", "python-django",
	"python-falcon", "python-fastapi", "python-flask", "python-gcpfunctions", "python-pylons", "python-pymongo",
	"python-pyramid", "python-quart", "python-rq", "python-sanic", "python-serverless", "python-starlette",
	"python-tornado", "python-tryton", "python-wsgi", "react-native", "ruby", "ruby-rack", "ruby-rails", "rust",
	"unity", "unreal",
}
