package io.regina.dashboard;

import io.regina.queue.CommandBus;
import io.regina.queue.Views;
import org.springframework.stereotype.Controller;
import org.springframework.ui.Model;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;

import java.util.List;

/** Message lookup by message id or transactionId, across every queue. */
@Controller
class MessagesScreen {
    static final int LIMIT = 100;
    private final CommandBus bus;
    private final PayloadFormat payloads;

    MessagesScreen(CommandBus bus, PayloadFormat payloads) {
        this.bus = bus;
        this.payloads = payloads;
    }

    @GetMapping(DashboardRoutes.MESSAGES)
    String lookup(@RequestParam(required = false) String key, Model model) {
        String trimmed = key == null ? "" : key.trim();
        List<Views.MessageView> found = trimmed.isEmpty() ? List.of() : bus.read(s -> s.findMessages(trimmed, LIMIT));
        model.addAttribute("screen", "messages");
        model.addAttribute("key", trimmed);
        model.addAttribute("messages", found);
        model.addAttribute("payloads", payloads);
        return "messages/lookup";
    }
}
