package io.regina.dashboard;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.util.MultiValueMap;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.server.ServerWebExchange;

/** The login form; Spring Security handles its POST and {@code /logout}. */
@Controller
class LoginScreen {

    /** {@code ?error} and {@code ?logout} carry no value, so their presence is what counts. */
    @GetMapping(DashboardRoutes.LOGIN)
    String login(ServerWebExchange exchange, Model model) {
        MultiValueMap<String, String> query = exchange.getRequest().getQueryParams();
        model.addAttribute("screen", "login");
        model.addAttribute("error", query.containsKey("error"));
        model.addAttribute("loggedOut", query.containsKey("logout"));
        return "login/form";
    }
}
