package io.regina.dashboard;

import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

/** The login form; Spring Security handles its POST and {@code /logout}. */
@Controller
class LoginScreen {

    @GetMapping(DashboardRoutes.LOGIN)
    String login(@RequestParam(required = false) String error, @RequestParam(required = false) String logout,
                 Model model) {
        model.addAttribute("screen", "login");
        model.addAttribute("error", error != null);
        model.addAttribute("loggedOut", logout != null);
        return "login/form";
    }
}
