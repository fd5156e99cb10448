package io.regina.architecture;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;
import javax.xml.parsers.DocumentBuilderFactory;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

/**
 * The packages that have a rule in {@code config/import-control.xml}, read from that file, so the
 * package table is written once: a main class must live in one of them exactly (a sub-package of
 * {@code api} is not {@code api}), or be a file the root names.
 */
record KnownPackages(String root, Set<String> packages, Set<String> rootFiles) {

    static final Path IMPORT_CONTROL = Path.of("config", "import-control.xml");

    static KnownPackages fromImportControl() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            // the DOCTYPE names checkstyle's DTD on the web: never fetch it
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            Element top = factory.newDocumentBuilder().parse(IMPORT_CONTROL.toFile()).getDocumentElement();
            String root = top.getAttribute("pkg");
            Set<String> packages = new LinkedHashSet<>();
            collect(top, root, packages);
            Set<String> files = new LinkedHashSet<>();
            for (Node n = top.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && e.getTagName().equals("file")) {
                    files.add(e.getAttribute("name"));
                }
            }
            return new KnownPackages(root, packages, files);
        } catch (Exception e) {
            throw new IllegalStateException("cannot read " + IMPORT_CONTROL.toAbsolutePath(), e);
        }
    }

    private static void collect(Element parent, String name, Set<String> packages) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals("subpackage")) {
                String child = name + "." + e.getAttribute("name");
                packages.add(child);
                collect(e, child, packages);
            }
        }
    }

    /** Every class below the root lives in a package with an import rule. */
    ArchRule everyClassInAKnownPackage() {
        DescribedPredicate<JavaClass> known = DescribedPredicate.describe(
                "live in a package of " + IMPORT_CONTROL + " " + packages + " or be one of the root's files "
                        + rootFiles,
                c -> packages.contains(c.getPackageName())
                        || c.getPackageName().equals(root) && rootFiles.contains(topLevel(c).getSimpleName()));
        return classes().that().resideInAPackage(root + "..").should(ArchCondition.from(known))
                .because("a new package needs its rule first (ARCHITECTURE.md, Packages)");
    }

    private static JavaClass topLevel(JavaClass c) {
        JavaClass outer = c;
        while (outer.getEnclosingClass().isPresent()) {
            outer = outer.getEnclosingClass().get();
        }
        return outer;
    }
}
