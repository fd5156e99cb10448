package io.regina.dashboard;

import java.util.List;

/**
 * Every route of the dashboard, in one place: the screens (GET), the live feed, the mutations (POST,
 * admin only, each naming its target) and the paths the security configuration guards.
 */
public final class DashboardRoutes {

    /** The site's root, where Queen serves its dashboard: it leads to this one. */
    public static final String ROOT = "/";
    public static final String LOGIN = "/login";
    public static final String LOGOUT = "/logout";
    public static final String ASSETS = "/dashboard/assets/**";

    public static final String OVERVIEW = "/dashboard";
    public static final String OVERVIEW_STREAM = "/dashboard/overview/stream";

    public static final String QUEUES = "/dashboard/queues";
    public static final String QUEUE = "/dashboard/queues/{queue}";
    public static final String QUEUE_PAUSE = "/dashboard/queues/{queue}/pause";
    public static final String QUEUE_RESUME = "/dashboard/queues/{queue}/resume";
    public static final String QUEUE_CLEAR = "/dashboard/queues/{queue}/clear";
    public static final String GROUP_SEEK = "/dashboard/queues/{queue}/groups/{group}/seek";
    public static final String GROUP_DELETE = "/dashboard/queues/{queue}/groups/{group}/delete";

    public static final String FAILED_JOBS = "/dashboard/failed-jobs";
    public static final String FAILED_JOB = "/dashboard/failed-jobs/{uuid}";
    public static final String FAILED_JOB_RETRY = "/dashboard/failed-jobs/{uuid}/retry";
    public static final String FAILED_JOB_FORGET = "/dashboard/failed-jobs/{uuid}/forget";
    public static final String FAILED_JOBS_RETRY_SELECTED = "/dashboard/failed-jobs/retry-selected";
    public static final String FAILED_JOBS_FORGET_SELECTED = "/dashboard/failed-jobs/forget-selected";
    public static final String FAILED_JOBS_RETRY_MATCHING = "/dashboard/failed-jobs/retry-matching";
    public static final String FAILED_JOBS_FORGET_MATCHING = "/dashboard/failed-jobs/forget-matching";
    public static final String FAILED_JOBS_FLUSH = "/dashboard/failed-jobs/flush";
    public static final String FAILED_JOBS_PRUNE = "/dashboard/failed-jobs/prune";

    public static final String MESSAGES = "/dashboard/messages";
    public static final String CLUSTER = "/dashboard/cluster";

    /** What the dashboard's security filter chain owns; every other path (the Queen API) never sees it. */
    public static final List<String> SECURED = List.of("/dashboard", "/dashboard/**", LOGIN, LOGOUT);

    private DashboardRoutes() {
    }
}
