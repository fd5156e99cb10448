package io.regina.dashboard;

import io.regina.queue.ClusterInfo;
import io.regina.queue.ClusterStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.web.reactive.result.view.CsrfRequestDataValueProcessor;
import org.springframework.security.web.server.csrf.CsrfToken;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ModelAttribute;
import org.springframework.web.server.ServerWebExchange;
import reactor.core.publisher.Mono;

/**
 * What every dashboard page shows around its content: the operator and their role, the node and the
 * log index its reads reflect, the one-shot notice, and the CSRF token that every form carries.
 */
@ControllerAdvice(basePackageClasses = DashboardModel.class)
class DashboardModel {
    private final ClusterInfo cluster;

    DashboardModel(ClusterInfo cluster) {
        this.cluster = cluster;
    }

    /** Resolves the token so that Thymeleaf's {@code th:action} forms get the hidden {@code _csrf} field. */
    @ModelAttribute("_csrf")
    Mono<CsrfToken> csrf(ServerWebExchange exchange) {
        Mono<CsrfToken> token = exchange.getAttribute(CsrfToken.class.getName());
        if (token == null) {
            return Mono.empty();
        }
        return token.doOnSuccess(resolved -> {
            if (resolved != null) {
                exchange.getAttributes().put(CsrfRequestDataValueProcessor.DEFAULT_CSRF_ATTR_NAME, resolved);
            }
        });
    }

    @ModelAttribute("operator")
    Mono<Operator> operator(ServerWebExchange exchange) {
        return exchange.getPrincipal().map(principal -> {
            boolean admin = false;
            if (principal instanceof Authentication authentication) {
                for (GrantedAuthority authority : authentication.getAuthorities()) {
                    admin |= Operator.ADMIN_AUTHORITY.equals(authority.getAuthority());
                }
            }
            return new Operator(principal.getName(), admin);
        }).defaultIfEmpty(Operator.ANONYMOUS);
    }

    @ModelAttribute("node")
    ClusterStatus node() {
        return cluster.status();
    }

    /** Never null: a model method answering null would leave every attribute of this advice out. */
    @ModelAttribute("notice")
    String notice(ServerWebExchange exchange) {
        String notice = Notices.take(exchange);
        return notice == null ? "" : notice;
    }

    @ModelAttribute("fmt")
    Format fmt() {
        return Format.INSTANCE;
    }
}
