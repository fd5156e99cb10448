package io.regina.dashboard;

import io.regina.testing.TestNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The dashboard in a real headless Chromium against the running broker (real Ratis, a temporary
 * data directory): failing jobs made through the Queen HTTP API, then found, retried, forgotten and
 * edited from the UI; roles and login enforced. Screenshots of each page go to target/screenshots/.
 * Skips when /usr/bin/chromium or /usr/bin/chromedriver is missing.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "regina.dashboard.users.ada.password={noop}ada-secret",
        "regina.dashboard.users.ada.role=admin",
        "regina.dashboard.users.vic.role=viewer",
        "regina.dashboard.sample-interval-ms=1000"})
class DashboardIT {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    private static ChromeDriverService service;
    private static WebDriver driver;

    @LocalServerPort
    int port;

    @DynamicPropertySource
    static void node(DynamicPropertyRegistry registry) {
        TestNode.register(registry);
        registry.add("regina.dashboard.users.vic.password",
                () -> "{bcrypt}" + new BCryptPasswordEncoder().encode("vic-secret"));
    }

    @BeforeAll
    static void browser() throws IOException {
        assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "needs /usr/bin/chromium and /usr/bin/chromedriver (apt-get install chromium chromium-driver)");
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .build();
        service.start();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1440,1000",
                "--user-data-dir=" + Files.createTempDirectory("regina-chromium"));
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(30));
        Files.createDirectories(SCREENSHOTS);
    }

    @AfterAll
    static void closeBrowser() {
        if (driver != null) {
            driver.quit();
        }
        if (service != null) {
            service.stop();
        }
    }

    @BeforeEach
    void loggedOut() {
        driver.manage().deleteAllCookies();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void loginIsRequired() {
        open("/dashboard/failed-jobs");
        waitFor().until(ExpectedConditions.urlContains("/login"));
        screenshot("login");
        logIn("ada", "wrong");
        waitFor().until(ExpectedConditions.presenceOfElementLocated(By.id("login-error")));
        assertThat(driver.getCurrentUrl()).contains("/login?error");
        logIn("ada", "ada-secret");
        waitFor().until(ExpectedConditions.urlContains("/dashboard/failed-jobs"));
        assertThat(text("operator")).isEqualTo("ada (admin)");
    }

    @Test
    void aJobThatFailsForGoodAppearsAndRetryDeliversItAgain() {
        String q = queue();
        post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"retryLimit\":1}}");
        push(q, "{\"order\":41}");
        ack(pop(q), "failed", "card declined");
        ack(pop(q), "failed", "card declined again");
        String uuid = failedJobs(q).get(0);

        asAdmin("/dashboard/failed-jobs?queue=" + q);
        WebElement row = driver.findElement(By.cssSelector("tr[data-uuid='" + uuid + "']"));
        assertThat(row.getText()).contains("card declined again").contains(q);
        screenshot("failed-jobs");

        row.findElement(By.cssSelector("button.retry")).click();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "Retried failed job"));
        assertThat(driver.findElements(By.cssSelector("tr[data-uuid='" + uuid + "']"))).isEmpty();
        assertThat(failedJobs(q)).isEmpty();
        JsonNode again = pop(q);
        assertThat(again.get("data").get("order").asInt()).isEqualTo(41);
        assertThat(again.get("attempts").asInt()).isEqualTo(1);
    }

    @Test
    void forgetRemovesIt() {
        String q = queue();
        String uuid = failForGood(q, "{\"n\":1}", "poison message");
        asAdmin("/dashboard/failed-jobs?queue=" + q);
        driver.findElement(By.cssSelector("tr[data-uuid='" + uuid + "'] button.forget")).click();
        Alert confirm = waitFor().until(ExpectedConditions.alertIsPresent());
        assertThat(confirm.getText()).contains("Forget this failed job");
        confirm.accept();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "Forgot failed job"));
        assertThat(driver.findElements(By.cssSelector("tr[data-uuid='" + uuid + "']"))).isEmpty();
        assertThat(status("GET", "/api/v1/failed-jobs/" + uuid, null)).isEqualTo(404);
        assertThat(status("GET", "/api/v1/pop/queue/" + q, null)).isEqualTo(204);
    }

    @Test
    void retryAllMatchingRetriesExactlyTheFilteredRows() {
        String q = queue();
        String other = queue();
        List<String> timeouts = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            timeouts.add(failForGood(q, "{\"n\":" + i + "}", "gateway timeout #" + i));
        }
        String kept1 = failForGood(q, "{\"n\":10}", "bad request");
        String kept2 = failForGood(q, "{\"n\":11}", "bad request");
        String kept3 = failForGood(other, "{\"n\":12}", "gateway timeout elsewhere");

        asAdmin("/dashboard/failed-jobs");
        driver.findElement(By.id("filter-queue")).sendKeys(q);
        driver.findElement(By.id("filter-text")).sendKeys("timeout");
        driver.findElement(By.id("search-button")).click();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.id("matching-count"), "3 matching"));
        assertThat(driver.findElements(By.cssSelector("#failed-jobs tbody tr"))).hasSize(3);
        WebElement retryAll = driver.findElement(By.id("retry-matching"));
        assertThat(retryAll.getText()).isEqualTo("Retry all 3 matching");
        screenshot("failed-jobs-filtered");
        retryAll.click();
        Alert confirm = waitFor().until(ExpectedConditions.alertIsPresent());
        assertThat(confirm.getText()).contains("Retry all 3 failed jobs matching").contains(q).contains("timeout");
        confirm.accept();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "Retried 3 failed jobs"));

        assertThat(failedJobs(q)).containsExactlyInAnyOrder(kept1, kept2);
        assertThat(failedJobs(other)).containsExactly(kept3);
        JsonNode delivered = get("/api/v1/pop/queue/" + q + "?batch=10");
        assertThat(delivered.get("messages")).hasSize(3);
        List<Integer> numbers = new ArrayList<>();
        delivered.get("messages").forEach(m -> numbers.add(m.get("data").get("n").asInt()));
        assertThat(numbers).containsExactlyInAnyOrder(0, 1, 2);
        assertThat(timeouts).hasSize(3);
    }

    @Test
    void editPayloadAndRetryDeliversTheEditedPayload() {
        String q = queue();
        String uuid = failForGood(q, "{\"email\":\"ada@exmaple.com\",\"tries\":1}", "unknown domain exmaple.com");
        asAdmin("/dashboard/failed-jobs/" + uuid);
        assertThat(text("job-error")).isEqualTo("unknown domain exmaple.com");
        assertThat(text("job-payload")).contains("\"email\" : \"ada@exmaple.com\"").contains("\n");
        assertThat(text("job-attempts")).isEqualTo("1");
        screenshot("failed-job-detail");
        WebElement editor = driver.findElement(By.id("edit-payload"));
        editor.clear();
        editor.sendKeys("{\"email\": \"ada@example.com\", \"tries\": 2}");
        driver.findElement(By.id("retry-edited")).click();
        waitFor().until(ExpectedConditions.textToBePresentInElementLocated(By.id("notice"), "with the edited payload"));
        JsonNode message = pop(q);
        assertThat(message.get("data").get("email").asString()).isEqualTo("ada@example.com");
        assertThat(message.get("data").get("tries").asInt()).isEqualTo(2);
        assertThat(status("GET", "/api/v1/failed-jobs/" + uuid, null)).isEqualTo(404);
    }

    @Test
    void aViewerSeesNoMutatingControlsAndAForgedPostIsForbidden() {
        String q = queue();
        String uuid = failForGood(q, "{}", "boom");
        open("/login");
        logIn("vic", "vic-secret");
        waitFor().until(ExpectedConditions.urlContains("/dashboard"));
        open("/dashboard/failed-jobs?queue=" + q);
        assertThat(text("operator")).isEqualTo("vic (viewer)");
        assertThat(driver.findElements(By.cssSelector("tr[data-uuid='" + uuid + "']"))).hasSize(1);
        assertThat(driver.findElements(By.cssSelector("button.retry, button.forget, #retry-matching, "
                + "#forget-matching, #retry-selected, #flush, #prune, input[name=ids]"))).isEmpty();
        open("/dashboard/queues?name=" + q);
        assertThat(driver.getPageSource()).doesNotContain("/clear").doesNotContain("/pause");
        open("/dashboard/failed-jobs/" + uuid);
        assertThat(driver.findElements(By.cssSelector("#retry, #forget, #edit-payload"))).isEmpty();

        Object forged = ((JavascriptExecutor) driver).executeAsyncScript(
                "const done = arguments[arguments.length - 1];"
                        + "const token = document.querySelector('input[name=_csrf]').value;"
                        + "fetch('/dashboard/failed-jobs/' + arguments[0] + '/retry', {method: 'POST',"
                        + " headers: {'Content-Type': 'application/x-www-form-urlencoded'},"
                        + " body: '_csrf=' + encodeURIComponent(token), redirect: 'manual'})"
                        + ".then(r => done(r.status), e => done(String(e)));", uuid);
        assertThat(forged).isEqualTo(403L);
        assertThat(failedJobs(q)).containsExactly(uuid);
    }

    @Test
    void everyPageRendersAndTheOverviewUpdatesLive() {
        String q = queue();
        post("/api/v1/configure", "{\"queue\":\"" + q + "\",\"options\":{\"stripes\":4}}");
        for (int i = 0; i < 8; i++) {
            push(q, "{\"i\":" + i + "}");
        }
        ack(pop(q), "completed", null);
        failForGood(q, "{\"i\":99}", "boom");
        String key = failForGood(queue(), "{}", "x");

        asAdmin("/dashboard");
        waitFor().until(d -> Integer.parseInt(d.findElement(By.id("overview")).getAttribute("data-updates") == null
                ? "0" : d.findElement(By.id("overview")).getAttribute("data-updates")) >= 2);
        assertThat(driver.findElements(By.cssSelector("#chart-throughput polyline"))).isNotEmpty();
        assertThat(text("overview-role")).isEqualTo("LEADER");
        screenshot("overview");

        open("/dashboard/queues?name=" + q);
        assertThat(driver.findElement(By.id("queues")).getText()).contains(q);
        screenshot("queues");

        open("/dashboard/queues/" + q);
        assertThat(text("queue-name")).isEqualTo(q);
        // Default (configure makes it) and the stripes the pushes were spread over, created on first use
        assertThat(driver.findElements(By.cssSelector("#partitions tbody tr"))).hasSizeBetween(2, 5);
        assertThat(driver.findElement(By.id("partitions")).getText()).contains("stripe-");
        assertThat(driver.findElements(By.cssSelector("#groups tbody tr"))).isNotEmpty();
        assertThat(driver.findElements(By.cssSelector("#dead-letters tbody tr"))).hasSize(1);
        screenshot("queue-detail");

        String transactionId = get("/api/v1/failed-jobs/" + key).get("transactionId").asString();
        open("/dashboard/messages?key=" + q);
        assertThat(driver.findElement(By.id("not-found")).getText()).contains("No stored message");
        String stored = get("/api/v1/pop/queue/" + q).get("messages").get(0).get("transactionId").asString();
        open("/dashboard/messages?key=" + stored);
        assertThat(driver.findElement(By.id("messages")).getText()).contains(stored);
        screenshot("messages");
        assertThat(transactionId).isNotEmpty();

        open("/dashboard/cluster");
        assertThat(text("node-role")).isEqualTo("LEADER");
        assertThat(driver.findElements(By.cssSelector("#peers tbody tr"))).hasSize(1);
        screenshot("cluster");
    }

    // ------------------------------------------------------------------ browser helpers

    private void open(String path) {
        driver.get("http://127.0.0.1:" + port + path);
    }

    private void logIn(String user, String password) {
        if (!driver.getCurrentUrl().contains("/login")) {
            open("/login");
        }
        driver.findElement(By.id("username")).clear();
        driver.findElement(By.id("username")).sendKeys(user);
        driver.findElement(By.id("password")).sendKeys(password);
        driver.findElement(By.id("login")).click();
    }

    private void asAdmin(String path) {
        open("/login");
        logIn("ada", "ada-secret");
        waitFor().until(ExpectedConditions.urlContains("/dashboard"));
        open(path);
    }

    private String text(String id) {
        return driver.findElement(By.id(id)).getText();
    }

    private WebDriverWait waitFor() {
        return new WebDriverWait(driver, Duration.ofSeconds(15));
    }

    private void screenshot(String name) {
        try {
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), SCREENSHOTS.resolve("dashboard-" + name + ".png"),
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ Queen HTTP API helpers

    private static String queue() {
        return "dash-" + UUID.randomUUID().toString().substring(0, 8);
    }

    private void push(String queue, String payload) {
        post("/api/v1/push", "{\"items\":[{\"queue\":\"" + queue + "\",\"payload\":" + payload + "}]}");
    }

    private JsonNode pop(String queue) {
        JsonNode popped = get("/api/v1/pop/queue/" + queue);
        assertThat(popped).as("a message to pop from " + queue).isNotNull();
        return popped.get("messages").get(0);
    }

    private void ack(JsonNode message, String status, String error) {
        post("/api/v1/ack", "{\"transactionId\":\"" + message.get("transactionId").asString() + "\",\"partitionId\":\""
                + message.get("partitionId").asString() + "\",\"leaseId\":\"" + message.get("leaseId").asString()
                + "\",\"status\":\"" + status + "\"" + (error == null ? "" : ",\"error\":\"" + error + "\"") + "}");
    }

    /** Push, pop and ack {@code dlq}: the message fails for good; answers its failed-job uuid. */
    private String failForGood(String queue, String payload, String error) {
        push(queue, payload);
        JsonNode message = pop(queue);
        ack(message, "dlq", error);
        for (JsonNode row : get("/api/v1/failed-jobs?queue=" + queue + "&limit=1000").get("items")) {
            if (row.get("messageId").asString().equals(message.get("id").asString())) {
                return row.get("uuid").asString();
            }
        }
        throw new AssertionError("no failed job for " + message);
    }

    private List<String> failedJobs(String queue) {
        List<String> uuids = new ArrayList<>();
        get("/api/v1/failed-jobs?queue=" + queue + "&limit=1000").get("items")
                .forEach(row -> uuids.add(row.get("uuid").asString()));
        return uuids;
    }

    private JsonNode get(String path) {
        return send("GET", path, null);
    }

    private JsonNode post(String path, String body) {
        return send("POST", path, body);
    }

    private int status(String method, String path, String body) {
        return exchange(method, path, body).statusCode();
    }

    private JsonNode send(String method, String path, String body) {
        HttpResponse<String> response = exchange(method, path, body);
        assertThat(response.statusCode()).as(method + " " + path + ": " + response.body()).isLessThan(300);
        return response.body().isEmpty() ? null : JSON.readTree(response.body());
    }

    private HttpResponse<String> exchange(String method, String path, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build();
        try {
            return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
