// Runs after the archetype has written the project (maven-archetype-plugin 3.x): without the
// webhook option (-Dwebhook=false, the default), the webhook's files are removed, so the project
// holds no trace of it. The files shared with the option say what they add with Velocity's #if.
import java.nio.file.Files
import java.nio.file.Path
import java.nio.file.Paths

def properties = request.properties
if (properties.get('webhook') != 'true') {
    Path project = Paths.get(request.outputDirectory, request.artifactId)
    String kind = properties.get('kind')
    String packagePath = properties.get('package').replace('.', '/')
    [
        "src/main/java/${packagePath}/${kind}Validator.java",
        "src/test/java/${packagePath}/${kind}ValidatorTest.java",
        'chart/templates/webhook-service.yaml',
        'chart/templates/webhook-configuration.yaml',
        'chart/templates/webhook-rbac.yaml',
        'chart/templates/_webhook.tpl',
    ].each { file -> Files.deleteIfExists(project.resolve(file.toString())) }
}
